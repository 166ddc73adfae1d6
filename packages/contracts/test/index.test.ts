import { describe, expect, it } from 'vitest';
import * as alerts from '../src/alerts';
import * as areaMapFile from '../src/area-map-file';
import * as asApplied from '../src/as-applied';
import * as autopilot from '../src/autopilot';
import * as backups from '../src/backups';
import * as brokerHooks from '../src/broker-hooks';
import * as common from '../src/common';
import * as cropSeasons from '../src/crop-seasons';
import * as dealers from '../src/dealers';
import * as devices from '../src/devices';
import * as endpoint from '../src/endpoint';
import * as endpoints from '../src/endpoints';
import * as errors from '../src/errors';
import * as farmRecords from '../src/farm-records';
import * as farms from '../src/farms';
import * as geojson from '../src/geojson';
import * as geometry from '../src/geometry';
import * as contracts from '../src/index';
import * as live from '../src/live';
import * as logs from '../src/logs';
import * as machineStateWords from '../src/machine-state-words';
import * as mqtt from '../src/mqtt';
import * as passwords from '../src/passwords';
import * as polygonValidity from '../src/polygon-validity';
import * as prescriptions from '../src/prescriptions';
import * as programs from '../src/programs';
import * as quarantine from '../src/quarantine';
import * as reportsCsv from '../src/reports-csv';
import * as secondFactor from '../src/second-factor';
import * as soilTextures from '../src/soil-textures';
import * as sprinklers from '../src/sprinklers';
import * as stationDays from '../src/station-days';
import * as userList from '../src/user-list';
import * as users from '../src/users';
import * as waterBalance from '../src/water-balance';
import * as watermap from '../src/watermap';
import * as weather from '../src/weather';
import * as webhooks from '../src/webhooks';
import * as zodMessages from '../src/zod-messages';

const MODULES = {
  alerts,
  areaMapFile,
  asApplied,
  autopilot,
  backups,
  brokerHooks,
  common,
  cropSeasons,
  dealers,
  devices,
  endpoint,
  endpoints,
  errors,
  farmRecords,
  farms,
  geojson,
  geometry,
  live,
  logs,
  machineStateWords,
  mqtt,
  passwords,
  polygonValidity,
  prescriptions,
  programs,
  quarantine,
  reportsCsv,
  secondFactor,
  soilTextures,
  sprinklers,
  stationDays,
  userList,
  users,
  waterBalance,
  watermap,
  weather,
  webhooks,
  zodMessages,
};

describe('the package entry point', () => {
  it.each(Object.entries(MODULES))('re-exports everything from %s', (_name, module) => {
    for (const [exportName, value] of Object.entries(module)) {
      expect(contracts, exportName).toHaveProperty(exportName);
      expect((contracts as Record<string, unknown>)[exportName], exportName).toBe(value);
    }
  });

  it('exports nothing of its own', () => {
    const fromModules = new Set(Object.values(MODULES).flatMap((module) => Object.keys(module)));
    expect(Object.keys(contracts).filter((name) => !fromModules.has(name))).toEqual([]);
  });
});
