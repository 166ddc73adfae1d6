import { type CropSeason, PROTOCOL_VERSION, dottedOfIsoDate } from '@pivot/contracts';
import { DEMO_MACHINES, type DemoHistory, demoProbes, inSeason, lastEmergence } from '@pivot/simulator';
import type { App } from '../app';
import type { SignedInUser } from '../http/request-context';
import { localDate } from '../time/local-day';

/** Reports handed to the store at a time: the ingest's own batch, well below its buffer. */
const REPORTS_PER_BATCH = 10_000;

/**
 * The seasons of one demo machine on `today` (YYYY-MM-DD): one for each crop area whose crop is
 * in the field that day by the demo farm's calendar (docs/simulator.md, "Demo fleet"), emerged on
 * the calendar's day. An area between harvest and the next emergence has none, as a bare field.
 */
export function demoSeasonsOf(machineId: string, today: string): CropSeason[] {
  const machine = DEMO_MACHINES.find((candidate) => candidate.id === machineId);
  return (machine?.cropAreas ?? [])
    .filter((cropArea) => inSeason(cropArea, today))
    .map((cropArea) => ({
      name: cropArea.name,
      polygon: cropArea.name,
      crop: cropArea.crop,
      emergence: dottedOfIsoDate(lastEmergence(cropArea, today)),
      soil: cropArea.soil,
    }));
}

/**
 * Gives each demo machine without any season its seasons, as a user would set them. A machine
 * that has seasons (the demo's from an earlier start, or the user's own) is left as it is.
 */
export async function seedDemoSeasons(
  app: App,
  admin: SignedInUser,
  machines: readonly { sprinklerId: number; machineId: string }[],
  timeZone: string,
): Promise<void> {
  const today = localDate(timeZone, Date.now());
  const server = { ip: '', userAgent: null };
  for (const { sprinklerId, machineId } of machines) {
    if ((await app.cropSeasons.list(admin, sprinklerId)).length > 0) continue;
    const seasons = demoSeasonsOf(machineId, today);
    if (seasons.length > 0) await app.cropSeasons.replace(admin, sprinklerId, seasons, {}, server);
  }
}

/**
 * The demo stations' past readings (the farm's history), before each station's first stored
 * reading: a fresh demo has no readings, and the balance runs from emergence on the station's
 * days. Answers how many readings were stored.
 */
export async function seedDemoWeather(app: App, history: DemoHistory): Promise<number> {
  let stored = 0;
  for (const station of history.stations) {
    stored += await app.weather.recordHistory(station.stationId, station.machineId, station.readings);
  }
  return stored;
}

/**
 * The demo probes' past readings (the farm's history: one each evening), before each probe's first
 * stored reading: the balance corrects each day's model by them (docs/advice.md, "Probes"), so a
 * fresh demo's depletions are its soil's, as a farm's with probes in all season. Answers how many
 * readings were stored.
 */
export async function seedDemoSoil(app: App, history: DemoHistory): Promise<number> {
  const sites = demoProbes(DEMO_MACHINES, '');
  let stored = 0;
  for (const [index, probe] of history.probes.entries()) {
    const { lat, lng, depth } = sites[index]!;
    const messages = probe.readings.map(({ ts, moisture }) => ({ ts, lat, lng, moisture, depth }));
    stored += await app.weather.recordSoilHistory(probe.id, probe.machineId, messages);
  }
  return stored;
}

/**
 * The demo machines' past reports (the farm's history), before each machine's first stored report,
 * stored as the broker's reports are: the watermap counts their water, and the advice learns each
 * machine's depth at 100 % from them. Run before the fleet reports, so that the water accounting
 * meets them in order. Answers how many reports were stored.
 */
export async function seedDemoReports(app: App, history: DemoHistory): Promise<number> {
  const { db } = app.database;
  let stored = 0;
  for (const { machineId, reports } of history.machines) {
    const [first] = await app.storedReports.between(db, machineId, new Date(0), new Date(), 1);
    const earlier = first ? reports.filter((report) => report.ts < first.ts) : reports;
    for (let start = 0; start < earlier.length; start += REPORTS_PER_BATCH) {
      const batch = earlier
        .slice(start, start + REPORTS_PER_BATCH)
        .map((report) =>
          app.telemetry.handlers.telemetry({ machineId, deviceId: machineId }, { v: PROTOCOL_VERSION, ...report }),
        );
      await app.telemetry.flush();
      await Promise.all(batch);
    }
    stored += earlier.length;
  }
  return stored;
}
