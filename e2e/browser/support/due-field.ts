import { type LatLng, positionAt } from '@pivot/contracts';
import type { HttpSession } from '../../support/http-session';
import { expect } from './fixtures';
import { type MachineOptions, type PivotMachine, addAndGrant } from './machines';

/**
 * Beside the demo's first machine, whose weather station has told its past: a machine's balance
 * there has days (docs/advice.md, "The demo").
 */
const BESIDE_THE_DEMO_STATION: LatLng = { lat: -27.361, lng: 26.762 };

/** A half of the circle round `centre`, clockwise from `from`°, its arc a corner every 10°. */
function half(centre: LatLng, from: number, radius: number): [number, number][] {
  const arc: [number, number][] = [];
  for (let bearing = from; bearing <= from + 180; bearing += 10) arc.push(positionAt(centre, bearing, radius));
  const pivot: [number, number] = [centre.lng, centre.lat];
  return [pivot, ...arc, pivot];
}

/** Days before today, as the API writes them (dd.mm.yyyy). */
function daysAgo(days: number): string {
  const day = new Date(Date.now() - days * 86_400_000);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${pad(day.getDate())}.${pad(day.getMonth() + 1)}.${day.getFullYear()}`;
}

/**
 * A simulated machine of the test's own, added and granted to `userId`, whose east half is due
 * water now and whose west half is not: its program "Jesień" has the halves as sectors ("Wschód",
 * "Zachód"), its crop seasons shallow roots on sand to the east and roots 3 m deep on loam to the
 * west, and its pace at 100 % is set (5 mm, and `hoursPerCircle` when given: a machine at rest
 * pumps nothing, so its time round cannot be learned from its flow). Its API id and the machine.
 */
export async function machineWithADueHalf(
  admin: HttpSession,
  startMachine: (options?: MachineOptions) => Promise<PivotMachine>,
  userId: number,
  options: { motion: 'front' | 'stop'; hoursPerCircle?: number },
): Promise<{ id: number; machine: PivotMachine }> {
  const centre = BESIDE_THE_DEMO_STATION;
  const east = half(centre, 0.25, 330);
  const west = half(centre, 180.25, 330);
  const sector = (name: string, ring: [number, number][]) => ({
    type: 'Feature' as const,
    geometry: { type: 'Polygon' as const, coordinates: [ring] },
    properties: { name, rate: 14 },
  });
  const machine = await startMachine({
    ...centre,
    armLength: 300,
    angle: 10,
    motion: options.motion,
    program: {
      name: 'Jesień',
      programData: { type: 'FeatureCollection', features: [sector('Wschód', east), sector('Zachód', west)] },
    },
  });
  const id = await addAndGrant(admin, machine, `Pole ${machine.id}`, userId);
  const crop = (name: string, ring: [number, number][]) => ({
    type: 'Feature',
    geometry: { type: 'Polygon', coordinates: [ring] },
    properties: { kind: 'crop', crop: 'potatoes', name },
  });
  const mapped = await admin.call('PATCH', `/api/sprinkler/${id}/`, {
    areaMap: { type: 'FeatureCollection', features: [crop('Ziemniaki', east), crop('Lucerna', west)] },
  });
  expect(mapped.status, JSON.stringify(mapped.body)).toBe(200);
  const stages = [10, 10, 40, 30];
  const seasons = await admin.call('PUT', `/api/sprinkler/${id}/crop-seasons/`, [
    {
      name: 'Ziemniaki płytkie',
      polygon: 'Ziemniaki',
      crop: { kc: [1.2, 1.2, 1.2], stages, rootDepth: [0.05, 0.05], p: 0.1 },
      emergence: daysAgo(20),
      soil: 'sand',
    },
    {
      name: 'Lucerna głęboka',
      polygon: 'Lucerna',
      crop: { kc: [0.5, 0.5, 0.5], stages, rootDepth: [3, 3], p: 0.8 },
      emergence: daysAgo(20),
      soil: 'loam',
    },
  ]);
  expect(seasons.status, JSON.stringify(seasons.body)).toBe(200);
  const pace = await admin.call('PATCH', `/api/sprinkler/${id}/application-depth/`, {
    depthAtFullSpeed: 5,
    ...(options.hoursPerCircle === undefined ? {} : { hoursPerCircle: options.hoursPerCircle }),
  });
  expect(pace.status, JSON.stringify(pace.body)).toBe(200);
  return { id, machine };
}
