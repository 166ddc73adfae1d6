import type { IncidentKind } from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import {
  LOW_PRESSURE_AFTER_MS,
  type MachineLook,
  OFFLINE_AFTER_MS,
  type OpenIncident,
  RECOVERY_HOLD_MS,
  type Watch,
  judge,
  recoveryHoldMs,
} from '../../src/modules/incidents/incident-rules';

const T0 = Date.UTC(2026, 10, 23, 12);
const LISTENING = T0 - 3_600_000;
const WATERING = {
  online: true,
  reportedAt: T0,
  presenceAt: T0 - 3_600_000,
  status: 'front' as const,
  pressure: 2.4,
  flow: 120,
  angle: 137.4,
  alarm: null,
};

function look(
  state: Partial<MachineLook['state'] & object> = {},
  lastMotionCommandAt: number | null = null,
): MachineLook {
  return {
    machineId: 'P-1',
    state: { ...WATERING, ...state },
    lowPressureBar: 1,
    watersHere: true,
    lastMotionCommandAt,
  };
}

const noWatch: Watch = { status: 'front', lowPressureSince: null };
const none = new Map<IncidentKind, OpenIncident>();
const openOf = (kind: IncidentKind, extra: Partial<OpenIncident> = {}) =>
  new Map([[kind, { id: 7, kind, beganAt: T0, recoveringSince: null, relapses: 0, ...extra }]]);

describe('the incident rules', () => {
  it('raise nothing for a machine watering as it should', () => {
    expect(judge(look(), noWatch, none, T0, LISTENING)).toMatchObject({ begin: [], end: [], recovering: [] });
  });

  it('raise an alarm with its reason at once, and not again while it is open', () => {
    const alarm = look({ status: 'alarm', alarm: 'pressure_loss' });
    expect(judge(alarm, noWatch, none, T0, LISTENING).begin).toEqual([{ kind: 'alarm', detail: 'pressure_loss' }]);
    expect(judge(alarm, noWatch, openOf('alarm'), T0 + 1000, LISTENING).begin).toEqual([]);
  });

  it('end an incident after the machine looked well for a minute, doubled for each relapse', () => {
    // Reporting every 5 s as it moves: its latest report is always a moment old.
    const well = look({ reportedAt: T0 + RECOVERY_HOLD_MS });
    const first = judge(well, noWatch, openOf('alarm'), T0, LISTENING);
    expect(first.recovering).toEqual([{ incident: expect.objectContaining({ id: 7 }), since: T0, relapses: 0 }]);
    expect(first.end).toEqual([]);
    const recovering = openOf('alarm', { recoveringSince: T0 });
    expect(judge(well, noWatch, recovering, T0 + RECOVERY_HOLD_MS - 1, LISTENING).end).toEqual([]);
    expect(judge(well, noWatch, recovering, T0 + RECOVERY_HOLD_MS, LISTENING).end).toHaveLength(1);
    // The alarm came back before the minute was over: a relapse, and the next wait is two minutes.
    const relapse = judge(
      look({ status: 'alarm', reportedAt: T0 + 30_000 }),
      noWatch,
      recovering,
      T0 + 30_000,
      LISTENING,
    );
    expect(relapse.recovering).toEqual([{ incident: expect.anything(), since: null, relapses: 1 }]);
    expect(recoveryHoldMs(1)).toBe(2 * RECOVERY_HOLD_MS);
    expect(recoveryHoldMs(10)).toBe(30 * 60_000);
  });

  it('call a stop after moving unexpected unless a person commanded a motion in the last two minutes', () => {
    const stopped = look({ status: 'stop', pressure: 0, flow: 0 });
    expect(judge(stopped, noWatch, none, T0, LISTENING).begin).toEqual([{ kind: 'unexpected_stop', detail: '(137°)' }]);
    expect(judge(look({ status: 'stop' }, T0 - 60_000), noWatch, none, T0, LISTENING).begin).toEqual([]);
    // A machine at rest that stays at rest did not stop.
    expect(judge(stopped, { status: 'stop', lowPressureSince: null }, none, T0, LISTENING).begin).toEqual([]);
  });

  it('raise low pressure after it stayed below the threshold for 20 s of motion, and end it above the threshold and its margin', () => {
    const low = look({ pressure: 0.3 });
    const first = judge(low, noWatch, none, T0, LISTENING);
    expect(first).toMatchObject({ begin: [], watch: { lowPressureSince: T0 } });
    const stillLow = look({ pressure: 0.3, reportedAt: T0 + LOW_PRESSURE_AFTER_MS });
    const later = judge(stillLow, first.watch, none, T0 + LOW_PRESSURE_AFTER_MS, LISTENING);
    expect(later.begin).toEqual([{ kind: 'low_pressure', detail: '0.3 bar' }]);
    expect(judge(look({ pressure: 1.1 }), later.watch, openOf('low_pressure'), T0, LISTENING).recovering).toEqual([]);
    expect(judge(look({ pressure: 1.2 }), later.watch, openOf('low_pressure'), T0, LISTENING).recovering).toHaveLength(
      1,
    );
  });

  it('take no pressure for a fault where the program has the machine move dry', () => {
    const dryAt = (reportedAt: number) => ({ ...look({ pressure: 0, flow: 0, reportedAt }), watersHere: false });
    const first = judge(dryAt(T0), noWatch, none, T0, LISTENING);
    const later = judge(dryAt(T0 + LOW_PRESSURE_AFTER_MS), first.watch, none, T0 + LOW_PRESSURE_AFTER_MS, LISTENING);
    expect(later).toMatchObject({ begin: [], watch: { lowPressureSince: null } });
  });

  it('raise offline only once nothing was heard for 30 s, and judge nothing else on old values', () => {
    const willArrived = look({ online: false, reportedAt: T0, status: 'alarm' });
    expect(judge(willArrived, noWatch, none, T0 + OFFLINE_AFTER_MS - 1, LISTENING).begin).toEqual([]);
    expect(judge(willArrived, noWatch, none, T0 + OFFLINE_AFTER_MS, LISTENING).begin).toEqual([
      { kind: 'offline', detail: '' },
    ]);
    // Frozen with its connection open: silent for three report intervals of a moving machine.
    const frozen = look({ reportedAt: T0 - 16_000 });
    expect(judge(frozen, noWatch, none, T0 + 14_000, LISTENING).begin).toEqual([{ kind: 'offline', detail: '' }]);
  });

  it('hear silence only while listening to the broker', () => {
    const silent = look({ reportedAt: T0 - 600_000 });
    expect(judge(silent, noWatch, none, T0, null).begin).toEqual([]);
    // The server was away; it started listening 10 s ago: the machine has had no time to report yet.
    expect(judge(silent, noWatch, none, T0, T0 - 10_000).begin).toEqual([]);
  });
});
