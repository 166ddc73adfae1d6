import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AssignedUserSchema,
  CreateSprinklerBodySchema,
  InternalIdSchema,
  MotionBodySchema,
  MotionSchema,
  PermissionsBodySchema,
  SPRINKLER_SORT_FIELDS,
  SprinklerAdminListQuerySchema,
  SprinklerAdminListResponseSchema,
  SprinklerDetailSchema,
  SprinklerListItemSchema,
  SprinklerListResponseSchema,
  SprinklerStatusSchema,
  SprinklerWithUsersSchema,
  UpdateSprinklerBodySchema,
} from '../src/sprinklers';
import { NOT_YET_REPORTED, expectRejected, expectUnknownKeyRejected, issuesOf, square } from './support';

/** A machine as the list call sends it: lat and lng as numeric strings. */
function buildListItem(overrides: Record<string, unknown> = {}) {
  return {
    id: 1,
    internalId: 'PIVOT-001',
    name: 'Pivot 1',
    lat: '52.4100',
    lng: '16.9300',
    distance: 312.5,
    angle: 87,
    status: 'front',
    speed: 40,
    pressure: 2.5,
    flow: 55,
    online: true,
    reportedAt: Date.UTC(2026, 5, 1, 12),
    lowPressureBar: 1,
    currentProgramName: 'Maize',
    currentProgramTimestamp: Date.UTC(2026, 3, 1),
    ...overrides,
  };
}

function buildAssignedUser(overrides: Record<string, unknown> = {}) {
  return { id: 5, first_name: 'Anna', last_name: 'Nowak', email: 'anna@example.com', level: 'control', ...overrides };
}

const sector = (name: string, rate: number) => ({
  type: 'Feature',
  geometry: { type: 'Polygon', coordinates: [square(16.93, 52.41)] },
  properties: { name, rate },
});

/** A machine as the detail call sends it. */
function buildDetail(overrides: Record<string, unknown> = {}) {
  // The detail names the running program inside currentProgramData, not beside it.
  const listItem: Record<string, unknown> = buildListItem();
  delete listItem.currentProgramName;
  return {
    ...listItem,
    currentPosition: {
      type: 'Feature',
      geometry: {
        type: 'LineString',
        coordinates: [
          [16.93, 52.41],
          [16.935, 52.412],
        ],
      },
      properties: null,
    },
    programs: [{ id: 2, name: 'Maize', programData: { type: 'FeatureCollection', features: [sector('North', 12)] } }],
    areaMap: { type: 'FeatureCollection', features: [] },
    speed: 40,
    pressure: 2.5,
    flow: 55,
    currentProgramData: { type: 'FeatureCollection', name: 'Maize', features: [sector('North', 12)] },
    currentProgramTimestamp: Date.UTC(2026, 3, 1),
    humidity_sensors: [
      [52.411, 16.931, 23.5],
      [52.412, 16.932, 19, 30],
    ],
    weather_stations: [{ id: 'WS-1', lat: 52.41, lng: 16.93, temperature: 18.2, humidity: 64, rainfall: 0 }],
    users: [buildAssignedUser()],
    level: 'control',
    ...overrides,
  };
}

describe('SprinklerStatusSchema and MotionSchema', () => {
  it('knows the four statuses and the three motions', () => {
    expect(SprinklerStatusSchema.options).toEqual(['stop', 'front', 'back', 'alarm']);
    expect(MotionSchema.options).toEqual(['front', 'back', 'stop']);
  });

  it.each(['forward', 'STOP', '', null])('rejects the status %j', (status) => {
    expectRejected(SprinklerStatusSchema, status);
  });

  it('does not accept alarm as a motion', () => {
    expectRejected(MotionSchema, 'alarm');
  });
});

describe('InternalIdSchema', () => {
  it.each(['PIVOT-001', 'pivot_7', '42', 'a'.repeat(64)])('accepts %j', (internalId) => {
    expect(InternalIdSchema.parse(internalId)).toBe(internalId);
  });

  it('trims surrounding spaces', () => {
    expect(InternalIdSchema.parse('  PIVOT-001 ')).toBe('PIVOT-001');
  });

  it.each(['', '   ', 'PIVOT 001', 'pivot/1', 'żuraw', 'a'.repeat(65), 'id#1'])('rejects %j', (internalId) => {
    expectRejected(InternalIdSchema, internalId);
  });
});

describe('SprinklerListItemSchema', () => {
  it('decodes lat and lng into numbers', () => {
    const item = SprinklerListItemSchema.parse(buildListItem({ lat: '-33.8688', lng: '151.2093' }));
    expect(item).toMatchObject({ lat: -33.8688, lng: 151.2093 });
  });

  it('encodes lat and lng back into numeric strings', () => {
    const item = SprinklerListItemSchema.parse(buildListItem());
    expect(z.encode(SprinklerListItemSchema, item)).toEqual(buildListItem({ lat: '52.41', lng: '16.93' }));
  });

  it('accepts a machine that has not reported yet', () => {
    const silent = buildListItem(NOT_YET_REPORTED);
    expect(SprinklerListItemSchema.parse(silent)).toMatchObject({ distance: null, status: null, online: false });
  });

  it.each(['12,5', '1e3', '', 'abc'])('rejects the malformed lat %j', (lat) => {
    expect(issuesOf(SprinklerListItemSchema, buildListItem({ lat }))).toEqual([
      expect.objectContaining({ path: 'lat', message: 'Expected a number such as 123.45' }),
    ]);
  });

  it.each([
    ['lng sent as a number', { lng: 16.93 }],
    ['a missing lng', { lng: undefined }],
    ['an unknown status', { status: 'running' }],
    ['a distance as text', { distance: '312.5' }],
    ['a missing angle', { angle: undefined }],
    ['a missing online flag', { online: undefined }],
    ['a program upload date as text', { currentProgramTimestamp: '2026-04-01' }],
    ['an internalId that is a number', { internalId: 1 }],
  ])('rejects %s', (_label, overrides) => {
    expectRejected(SprinklerListItemSchema, buildListItem(overrides));
  });

  it('is strict', () => {
    expectUnknownKeyRejected(SprinklerListItemSchema, buildListItem());
  });

  it('makes up the plain list answer', () => {
    expect(SprinklerListResponseSchema.parse([buildListItem(), buildListItem({ id: 2 })])).toHaveLength(2);
    expectRejected(SprinklerListResponseSchema, { count: 1, data: [buildListItem()] });
  });
});

describe('AssignedUserSchema', () => {
  it('accepts the user shown beside a machine', () => {
    expect(AssignedUserSchema.parse(buildAssignedUser())).toEqual(buildAssignedUser());
  });

  it('rejects missing names and unknown keys', () => {
    expectRejected(AssignedUserSchema, buildAssignedUser({ last_name: undefined }));
    expectUnknownKeyRejected(AssignedUserSchema, buildAssignedUser());
  });
});

describe('SprinklerDetailSchema', () => {
  it('accepts a full machine and decodes its coordinates', () => {
    const detail = SprinklerDetailSchema.parse(buildDetail());
    expect(detail).toMatchObject({ lat: 52.41, lng: 16.93, status: 'front', speed: 40 });
    expect(detail.humidity_sensors).toHaveLength(2);
  });

  it('accepts a machine with nothing reported, no program running and no users', () => {
    const idle = buildDetail({
      currentPosition: null,
      distance: null,
      angle: null,
      status: null,
      speed: null,
      pressure: null,
      flow: null,
      currentProgramData: null,
      currentProgramTimestamp: null,
      programs: [],
      humidity_sensors: [],
      weather_stations: [],
      users: [],
    });
    expect(SprinklerDetailSchema.safeParse(idle).success).toBe(true);
  });

  it.each([
    ['a polygon as areaMap', { areaMap: { type: 'Polygon', coordinates: [square(16.93, 52.41)] } }],
    ['a feature as areaMap', { areaMap: { type: 'Feature', geometry: null, properties: null } }],
  ])('accepts %s', (_label, overrides) => {
    expect(SprinklerDetailSchema.safeParse(buildDetail(overrides)).success).toBe(true);
  });

  it.each([
    ['an areaMap that is not GeoJSON', { areaMap: { fields: [] } }, 'areaMap'],
    ['a missing areaMap', { areaMap: undefined }, 'areaMap'],
    [
      'a currentPosition that is a point',
      {
        currentPosition: { type: 'Feature', geometry: { type: 'Point', coordinates: [16.9, 52.4] }, properties: null },
      },
      'currentPosition',
    ],
    [
      'a running program without its name',
      { currentProgramData: { type: 'FeatureCollection', features: [] } },
      'currentProgramData',
    ],
    [
      'a program with an unnamed sector',
      { programs: [{ id: 2, name: 'Maize', programData: { type: 'FeatureCollection', features: [sector('', 1)] } }] },
      'programs',
    ],
    ['a humidity sensor pair', { humidity_sensors: [[52.41, 16.93]] }, 'humidity_sensors'],
    [
      'a weather station without rainfall',
      { weather_stations: [{ id: 'WS-1', lat: 52.41, lng: 16.93, temperature: 18, humidity: 60 }] },
      'weather_stations',
    ],
    ['a timestamp as text', { currentProgramTimestamp: '2026-04-01' }, 'currentProgramTimestamp'],
    ['a malformed lng', { lng: '16,93' }, 'lng'],
  ])('rejects %s', (_label, overrides, field) => {
    const issues = issuesOf(SprinklerDetailSchema, buildDetail(overrides));
    expect(issues.length).toBeGreaterThan(0);
    expect(issues.every((issue) => issue.path.startsWith(field))).toBe(true);
  });

  it('is strict', () => {
    expectUnknownKeyRejected(SprinklerDetailSchema, buildDetail());
  });
});

describe('SprinklerWithUsersSchema and SprinklerAdminListResponseSchema', () => {
  const row = { sprinkler: buildListItem(), users: [buildAssignedUser()], farm: { id: 3, name: 'Green Acres' } };

  it('accepts a machine with its users and its farm, or none, in a list envelope', () => {
    expect(SprinklerWithUsersSchema.parse(row)).toMatchObject({
      sprinkler: { lat: 52.41 },
      users: [{ id: 5 }],
      farm: { name: 'Green Acres' },
    });
    expect(SprinklerWithUsersSchema.parse({ ...row, farm: null }).farm).toBeNull();
    expect(SprinklerAdminListResponseSchema.parse({ count: 31, data: [row] }).count).toBe(31);
  });

  it('rejects a row without users and an answer without count', () => {
    expectRejected(SprinklerWithUsersSchema, { sprinkler: buildListItem(), farm: null });
    expectRejected(SprinklerAdminListResponseSchema, { data: [row] });
  });

  it('is strict', () => {
    expectUnknownKeyRejected(SprinklerWithUsersSchema, row);
    expectUnknownKeyRejected(SprinklerAdminListResponseSchema, { count: 1, data: [row] });
  });
});

describe('SprinklerAdminListQuerySchema', () => {
  it('defaults to the first page sorted by id, ascending', () => {
    expect(SprinklerAdminListQuerySchema.parse({})).toEqual({ page: 1, pageSize: 25, sort: 'id', order: 'asc' });
  });

  it('coerces the query string and trims the search', () => {
    const query = { page: '2', pageSize: '100', search: '  pivot ', sort: 'name', order: 'desc', exclude: '9' };
    expect(SprinklerAdminListQuerySchema.parse(query)).toEqual({
      page: 2,
      pageSize: 100,
      search: 'pivot',
      sort: 'name',
      order: 'desc',
      exclude: 9,
    });
  });

  it.each(SPRINKLER_SORT_FIELDS.map((field) => [field]))('sorts by %s', (sort) => {
    expect(SprinklerAdminListQuerySchema.parse({ sort }).sort).toBe(sort);
  });

  it.each([
    ['an unknown sort field', { sort: 'lat' }],
    ['an unknown order', { order: 'up' }],
    ['a page size above 100', { pageSize: '101' }],
    ['page 0', { page: '0' }],
    ['an exclude that is not an id', { exclude: 'me' }],
    ['a search over 100 characters', { search: 's'.repeat(101) }],
  ])('rejects %s', (_label, query) => {
    expectRejected(SprinklerAdminListQuerySchema, query);
  });

  it('is strict', () => {
    expectUnknownKeyRejected(SprinklerAdminListQuerySchema, { page: '1' });
  });
});

describe('CreateSprinklerBodySchema and UpdateSprinklerBodySchema', () => {
  it('creates a machine from its internal id, with an optional name', () => {
    expect(CreateSprinklerBodySchema.parse({ internalId: ' PIVOT-002 ' })).toEqual({ internalId: 'PIVOT-002' });
    expect(CreateSprinklerBodySchema.parse({ internalId: 'PIVOT-002', name: ' South ' })).toEqual({
      internalId: 'PIVOT-002',
      name: 'South',
    });
  });

  it.each([
    ['a missing internal id', {}],
    ['an internal id with spaces', { internalId: 'PIVOT 2' }],
    ['an empty name', { internalId: 'PIVOT-2', name: ' ' }],
  ])('refuses to create a machine with %s', (_label, body) => {
    expectRejected(CreateSprinklerBodySchema, body);
  });

  it('updates the name or the areaMap, each optional', () => {
    const areaMap = { type: 'FeatureCollection', features: [] };
    expect(UpdateSprinklerBodySchema.parse({})).toEqual({});
    expect(UpdateSprinklerBodySchema.parse({ name: 'Renamed', areaMap })).toEqual({ name: 'Renamed', areaMap });
  });

  it.each([
    ['an areaMap that is not GeoJSON', { areaMap: { type: 'Map' } }],
    [
      'an areaMap polygon that does not close',
      { areaMap: { type: 'Polygon', coordinates: [square(16.9, 52.4).slice(1)] } },
    ],
    ['a name over 100 characters', { name: 'n'.repeat(101) }],
    ['a new internal id', { internalId: 'PIVOT-3' }],
  ])('refuses an update with %s', (_label, body) => {
    expectRejected(UpdateSprinklerBodySchema, body);
  });

  it('are strict', () => {
    expectUnknownKeyRejected(CreateSprinklerBodySchema, { internalId: 'PIVOT-2' });
    expectUnknownKeyRejected(UpdateSprinklerBodySchema, { name: 'Pivot' });
  });
});

describe('MotionBodySchema', () => {
  it.each(['front', 'back', 'stop'])('sends the motion %s', (motion) => {
    expect(MotionBodySchema.parse({ motion })).toEqual({ motion });
  });

  it('rejects other motions and unknown keys', () => {
    expectRejected(MotionBodySchema, { motion: 'left' });
    expectRejected(MotionBodySchema, {});
    expectUnknownKeyRejected(MotionBodySchema, { motion: 'stop' });
  });
});

describe('PermissionsBodySchema', () => {
  it.each(['grant', 'revoke'])(
    'accepts the action %s for a user id, giving control when no level is named',
    (action) => {
      expect(PermissionsBodySchema.parse({ user: 5, action })).toEqual({ user: 5, action, level: 'control' });
    },
  );

  it.each(['watch', 'control'])('accepts a grant of the level %s', (level) => {
    expect(PermissionsBodySchema.parse({ user: 5, action: 'grant', level })).toEqual({
      user: 5,
      action: 'grant',
      level,
    });
  });

  it.each([
    ['an unknown action', { user: 5, action: 'toggle' }],
    ['a missing user', { action: 'grant' }],
    ['a user id of zero', { user: 0, action: 'grant' }],
    ['a user given by email', { user: 'anna@example.com', action: 'grant' }],
    ['an unknown level', { user: 5, action: 'grant', level: 'admin' }],
  ])('rejects %s', (_label, body) => {
    expectRejected(PermissionsBodySchema, body);
  });

  it('is strict', () => {
    expectUnknownKeyRejected(PermissionsBodySchema, { user: 5, action: 'grant' });
  });
});
