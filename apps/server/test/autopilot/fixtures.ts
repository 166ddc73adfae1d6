import { type AutopilotRulesInput, AutopilotRulesSchema } from '@pivot/contracts';
import type { AreaState, DecisionInput } from '../../src/modules/autopilot';
import { localInstant } from '../../src/time/local-day';

export const TIME_ZONE = 'Europe/Warsaw';
export const HOUR = 60 * 60_000;
/** A Wednesday in summer (CEST, UTC+2). */
export const DAY = '2026-07-15';
export const NEXT_DAY = '2026-07-16';

/** The instant of a local time (HH:MM) on a date, in Warsaw. */
export function at(time: string, date = DAY): number {
  const [hours, minutes] = time.split(':').map(Number);
  return localInstant(TIME_ZONE, date, hours! * 60 + minutes!);
}

export const rules = (input: AutopilotRulesInput = {}) => AutopilotRulesSchema.parse(input);

/** A sector 2 h of the arm away, Dr 38 of RAW 52 mm; its gross dose on 2 ha is 800 m³. */
export function area(overrides: Partial<AreaState> = {}): AreaState {
  return {
    name: 'North',
    depletionMm: 38,
    rawMm: 52,
    tawMm: 110,
    triggerAt: null,
    armHours: 2,
    netMm: 34,
    grossMm: 40,
    hectares: 2,
    ...overrides,
  };
}

/** Pivot 1 at 14:00 on a Wednesday, idle and well, its North sector due at 21:00 (so to start by 19:00). */
export function input(overrides: Partial<DecisionInput> = {}): DecisionInput {
  const now = overrides.now ?? at('14:00');
  return {
    now,
    timeZone: TIME_ZONE,
    mode: 'auto',
    machine: {
      id: 1,
      name: 'Pivot 1',
      online: true,
      alarm: false,
      openIncident: null,
      watering: null,
      pausedBy: null,
      hectares: 50,
    },
    areas: [area({ triggerAt: at('21:00') })],
    forecastRain: [],
    station: { at: now - 10 * 60_000, windMs: 3, temperatureC: 18 },
    rules: rules(),
    season: { usedM3: 0, usedMm: 0 },
    lastSkip: null,
    pump: { watering: [], due: [] },
    programReady: true,
    ...overrides,
  };
}

/** Hourly rain from `from`, `mm` in each of `hours` hours. */
export function rain(from: number, hours: number, mm: number) {
  return Array.from({ length: hours }, (_, index) => ({ at: from + index * HOUR, mm }));
}
