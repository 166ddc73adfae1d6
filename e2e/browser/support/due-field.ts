import type { LatLng } from '@pivot/contracts';
import { halvesField } from '../../support/halves-field';
import type { HttpSession } from '../../support/http-session';
import { expect } from './fixtures';
import { type MachineOptions, type PivotMachine, addAndGrant } from './machines';

/**
 * Beside the demo's first machine, whose weather station has told its past: a machine's balance
 * there has days (docs/advice.md, "The demo").
 */
const BESIDE_THE_DEMO_STATION: LatLng = { lat: -27.361, lng: 26.762 };

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
  const field = halvesField(BESIDE_THE_DEMO_STATION, 330);
  const machine = await startMachine({
    ...BESIDE_THE_DEMO_STATION,
    armLength: 300,
    angle: 10,
    motion: options.motion,
    program: { name: 'Jesień', programData: field.programData },
  });
  const id = await addAndGrant(admin, machine, `Pole ${machine.id}`, userId);
  const mapped = await admin.call('PATCH', `/api/sprinkler/${id}/`, { areaMap: field.areaMap });
  expect(mapped.status, JSON.stringify(mapped.body)).toBe(200);
  const seasons = await admin.call('PUT', `/api/sprinkler/${id}/crop-seasons/`, field.seasons(daysAgo(20)));
  expect(seasons.status, JSON.stringify(seasons.body)).toBe(200);
  const pace = await admin.call('PATCH', `/api/sprinkler/${id}/application-depth/`, {
    depthAtFullSpeed: 5,
    ...(options.hoursPerCircle === undefined ? {} : { hoursPerCircle: options.hoursPerCircle }),
  });
  expect(pace.status, JSON.stringify(pace.body)).toBe(200);
  return { id, machine };
}
