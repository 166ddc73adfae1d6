import {
  type SprinklerDetail,
  SprinklerDetailSchema,
  type SprinklerListItem,
  SprinklerListItemSchema,
  type User,
  UserSchema,
  type WaterBalance,
  type WaterBalanceArea,
} from '@pivot/contracts';

/** A user as the server answers it, checked against the contract so it cannot drift from it. */
export function buildUser(changes: Partial<User> = {}): User {
  return UserSchema.parse({
    id: 3,
    first_name: 'Jan',
    last_name: 'Kowalski',
    company_name: null,
    email: 'jan@farm.pl',
    phone: null,
    subscription: { active: true, expiry_date: null },
    admin: false,
    language: 'pl',
    activated: true,
    ...changes,
  });
}

/** What every form of a machine holds, as the server sends it, before the machine has reported. */
const NOT_REPORTED_MACHINE = {
  id: 7,
  internalId: 'PIVOT-07',
  name: 'North field',
  lat: '52.2',
  lng: '17.2',
  distance: null,
  angle: null,
  status: null,
  speed: null,
  pressure: null,
  flow: null,
  online: false,
  reportedAt: null,
  lowPressureBar: 1,
  currentProgramTimestamp: null,
};

/** A machine of the list, not reported yet unless told; checked against the contract. */
export function buildSprinklerListItem(changes: Partial<SprinklerListItem> = {}): SprinklerListItem {
  return SprinklerListItemSchema.parse({ ...NOT_REPORTED_MACHINE, currentProgramName: null, ...changes });
}

/** A machine as the detail call answers it, not reported yet unless told; checked against the contract. */
export function buildSprinklerDetail(changes: Partial<SprinklerDetail> = {}): SprinklerDetail {
  return SprinklerDetailSchema.parse({
    ...NOT_REPORTED_MACHINE,
    currentPosition: null,
    programs: [],
    areaMap: { type: 'FeatureCollection', features: [] },
    currentProgramData: null,
    humidity_sensors: [],
    weather_stations: [],
    users: [],
    level: 'control',
    ...changes,
  });
}

/** A zone's or sector's advice: 12.4 mm depleted of 41.6 mm TAW, water due on 10.06.2026. */
export function buildWaterBalanceArea(changes: Partial<WaterBalanceArea> = {}): WaterBalanceArea {
  return {
    name: 'Kukurydza 2026',
    taw: 41.6,
    raw: 20.8,
    depletion: 12.4,
    depletionMin: 9.1,
    depletionMax: 14,
    ks: 1,
    etc: 2.31,
    et0: 4.62,
    rain: 0,
    applied: 0,
    nextIrrigation: '10.06.2026',
    netDose: 21.3,
    restDose: 0,
    grossDose: 25.06,
    percentTimer: null,
    passes: null,
    expectedDepletion: [12.4, 14.7, 17, 19.3],
    ...changes,
  };
}

/** A machine's water balance at the end of 07.06.2026 with one zone, no sectors and no cells. */
export function buildWaterBalance(changes: Partial<WaterBalance> = {}): WaterBalance {
  return {
    date: '07.06.2026',
    reason: null,
    station: 'WS-12',
    missingWeatherDays: 0,
    lastRain: null,
    forecast: 'recent-et0',
    forecastFallback: 'off',
    applicationDepth: null,
    zones: [buildWaterBalanceArea()],
    sectors: [],
    step: 10,
    cells: [],
    probes: [],
    probeDisagreements: [],
    ...changes,
  };
}
