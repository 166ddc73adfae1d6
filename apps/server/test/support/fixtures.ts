import { type AccessLevel, type ProgramBody, type ProgramData, positionAt } from '@pivot/contracts';
import { sprinklerAccess } from '../../src/modules/access/access.table';
import { sprinklers } from '../../src/modules/sprinklers/sprinklers.table';
import type { TestApp } from './test-app';

/** A machine's live values before it has reported anything, as every list form of it shows them. */
export const NOT_YET_REPORTED = {
  distance: null,
  angle: null,
  status: null,
  speed: null,
  pressure: null,
  flow: null,
  online: false,
  reportedAt: null,
  lowPressureBar: 1,
  currentProgramName: null,
  currentProgramTimestamp: null,
} as const;

let machineCounter = 0;

/** A machine stored straight in the database, as if an administrator had added it. */
export async function buildSprinkler(t: TestApp, overrides: Partial<typeof sprinklers.$inferInsert> = {}) {
  machineCounter += 1;
  const [row] = await t.database.db
    .insert(sprinklers)
    .values({
      internalId: `TEST-${machineCounter}-${Date.now().toString(36)}`,
      name: `Pivot ${machineCounter}`,
      lat: '52.200000',
      lng: '17.100000',
      armLength: 400,
      ...overrides,
    })
    .returning();
  return row!;
}

/** Grants a machine straight in the database, at control unless told. */
export async function grant(
  t: TestApp,
  sprinklerId: number,
  userId: number,
  level: AccessLevel = 'control',
): Promise<void> {
  await t.database.db.insert(sprinklerAccess).values({ sprinklerId, userId, level });
}

/** A square sector around (lng, lat), about 100 m a side. */
export function squareSector(name: string, rate: number, lng = 17.1, lat = 52.2) {
  const d = 0.0007;
  return {
    type: 'Feature' as const,
    geometry: {
      type: 'Polygon' as const,
      coordinates: [
        [
          [lng, lat],
          [lng + d, lat],
          [lng + d, lat + d],
          [lng, lat + d],
          [lng, lat],
        ] as [number, number][],
      ],
    },
    properties: { name, rate },
  };
}

export function buildProgram(name: string, sectors = [squareSector('North', 12)]): ProgramBody {
  const programData: ProgramData = { type: 'FeatureCollection', features: sectors };
  return { name, programData };
}

/**
 * The ring of the half of a circle of `radius` metres round `centre`, clockwise from `from`°
 * (a sector, a crop area): a quarter degree off a machine's walk keeps its cells off the edge.
 */
export function halfCircle(centre: { lat: number; lng: number }, from: number, radius: number): [number, number][] {
  const arc: [number, number][] = [];
  for (let bearing = from; bearing <= from + 180; bearing += 10) arc.push(positionAt(centre, bearing, radius));
  return [[centre.lng, centre.lat], ...arc, [centre.lng, centre.lat]];
}
