import {
  type SprinklerDetail,
  SprinklerDetailSchema,
  type SprinklerListItem,
  SprinklerListItemSchema,
  type User,
  UserSchema,
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
