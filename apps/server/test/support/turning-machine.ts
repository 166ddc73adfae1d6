import { telemetry } from '../../src/modules/telemetry/telemetry.table';
import type { TestApp } from './test-app';

/** The flow of the turning machine, m³/h. */
export const TURNING_FLOW = 72;
export const TURNING_REPORT_EVERY_MS = 5_000;

/**
 * Stores the reports of a machine turning clockwise at 0.01° a second from 45°, its arm 300 m,
 * watering at TURNING_FLOW, reporting every 5 s from `from` for `minutes`.
 */
export async function storeTurning(t: TestApp, machineId: string, from: Date, minutes: number): Promise<void> {
  const rows = [];
  for (let second = 0; second <= minutes * 60; second += TURNING_REPORT_EVERY_MS / 1000) {
    rows.push({
      machineId,
      ts: new Date(from.getTime() + second * 1000),
      status: 'front' as const,
      angle: (45 + second * 0.01) % 360,
      distance: 300,
      speed: 50,
      pressure: 2.5,
      flow: TURNING_FLOW,
    });
  }
  await t.database.db.insert(telemetry).values(rows);
}
