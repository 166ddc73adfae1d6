import type {
  AccessLevel,
  AssignedUser,
  HumiditySensor,
  LiveEvent,
  Program,
  SprinklerDetail,
  SprinklerListItem,
  WeatherStation,
} from '@pivot/contracts';
import type { MachineEvent } from '../../gateway/mqtt-gateway';
import { armLine } from '../../geo/geo';
import { type MachineStateRow, isOnline, measuredValues } from '../telemetry';
import type { ListedSprinkler, ListedState, SprinklerRow } from './sprinklers.repository';

/** The list form of a machine; live values stay null until the machine has reported them. */
export function presentSprinklerListItem(
  row: ListedSprinkler,
  state?: ListedState,
  nowMs = Date.now(),
): SprinklerListItem {
  return {
    id: row.id,
    internalId: row.internalId,
    name: row.name,
    lat: Number(row.lat),
    lng: Number(row.lng),
    distance: state?.distance ?? null,
    angle: state?.angle ?? null,
    status: state?.status ?? null,
    speed: state?.speed ?? null,
    pressure: state?.pressure ?? null,
    flow: state?.flow ?? null,
    online: isOnline(state, nowMs),
    reportedAt: state?.reportedAt?.getTime() ?? null,
    lowPressureBar: row.lowPressureBar,
    currentProgramName: state?.programName && state.programLoaded ? state.programName : null,
    currentProgramTimestamp: state?.programUploadedAt?.getTime() ?? null,
  };
}

export type SprinklerDetailParts = {
  sprinkler: SprinklerRow;
  state: MachineStateRow | undefined;
  programs: Program[];
  users: AssignedUser[];
  weather: { stations: WeatherStation[] };
  humiditySensors: HumiditySensor[];
};

/** A machine's detail as a user whose access is `level` sees it. */
export function presentSprinklerDetail(parts: SprinklerDetailParts, level: AccessLevel): SprinklerDetail {
  const { sprinkler, state, programs, users } = parts;
  const centre = { lat: Number(sprinkler.lat), lng: Number(sprinkler.lng) };
  const position =
    state?.position ??
    (typeof state?.angle === 'number' ? armLine(centre, state.angle, state.distance ?? sprinkler.armLength) : null);
  const { currentProgramName, ...listItem } = presentSprinklerListItem(
    sprinkler,
    state && { ...state, programLoaded: state.programData !== null },
  );
  return {
    ...listItem,
    currentPosition: position ? { type: 'Feature', geometry: position, properties: {} } : null,
    programs,
    areaMap: sprinkler.areaMap,
    currentProgramData:
      currentProgramName !== null && state?.programData
        ? { type: 'FeatureCollection', name: currentProgramName, features: state.programData.features }
        : null,
    humidity_sensors: parts.humiditySensors,
    weather_stations: parts.weather.stations,
    users,
    level,
  };
}

/** Turns a machine's report into the event browsers receive. */
export function presentLiveEvent(sprinkler: Pick<SprinklerRow, 'lat' | 'lng'>, event: MachineEvent): LiveEvent {
  if (event.kind === 'presence') return { type: 'presence', online: event.message.online };
  if (event.kind === 'program') {
    const { program } = event.message;
    return {
      type: 'program',
      currentProgramData: program
        ? { type: 'FeatureCollection', name: program.name, features: program.programData.features }
        : null,
      currentProgramTimestamp: program?.uploadedAt ?? null,
    };
  }
  const { message } = event;
  const centre = { lat: Number(sprinkler.lat), lng: Number(sprinkler.lng) };
  return {
    type: 'telemetry',
    timestamp: message.ts,
    ...measuredValues(message),
    alarm: message.alarm ?? null,
    currentPosition: {
      type: 'Feature',
      geometry: message.position ?? armLine(centre, message.angle, message.distance),
      properties: {},
    },
  };
}
