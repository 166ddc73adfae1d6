/**
 * A farm's autopilot rules on the calendar (docs/autopilot.md): whether an instant lies in the
 * allowed hours, what a kWh costs then and in which tariff zone, and the instants where either
 * changes. The rules themselves are the contracts' (`AutopilotRulesSchema`, `TARIFF_PRESETS`).
 */
import {
  type AutopilotRules,
  type Tariff,
  type TariffZone,
  type WeeklyWindow,
  minutesOfLocalTime,
} from '@pivot/contracts';
import { addDays, localDate, localInstant } from '../../time/local-day';

export type { AutopilotRules, AutopilotRulesInput, Tariff, TariffZone, WeeklyWindow } from '@pivot/contracts';

const DAY_MINUTES = 24 * 60;
const WEEKDAY_OF: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };
const clockFormats = new Map<string, Intl.DateTimeFormat>();

/** The local wall clock at an instant: ISO weekday (1 Monday … 7 Sunday) and minutes since midnight. */
export function localClock(timeZone: string, at: number): { weekday: number; minutes: number } {
  let format = clockFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    clockFormats.set(timeZone, format);
  }
  const parts = format.formatToParts(at);
  const part = (type: string) => parts.find((candidate) => candidate.type === type)?.value ?? '';
  return { weekday: WEEKDAY_OF[part('weekday')]!, minutes: Number(part('hour')) * 60 + Number(part('minute')) };
}

/** Whether a weekly window covers a wall-clock moment; one over midnight belongs to the day it starts on. */
export function windowCovers(window: WeeklyWindow, clock: { weekday: number; minutes: number }): boolean {
  const start = minutesOfLocalTime(window.start);
  const end = minutesOfLocalTime(window.end);
  if (start < end) return window.days.includes(clock.weekday) && clock.minutes >= start && clock.minutes < end;
  const dayBefore = clock.weekday === 1 ? 7 : clock.weekday - 1;
  return (
    (window.days.includes(clock.weekday) && clock.minutes >= start) ||
    (window.days.includes(dayBefore) && clock.minutes < end)
  );
}

/** Whether the rules let the autopilot start the machine at an instant. */
export function allowedAt(rules: Pick<AutopilotRules, 'allowedHours'>, timeZone: string, at: number): boolean {
  const clock = localClock(timeZone, at);
  return rules.allowedHours.some((window) => windowCovers(window, clock));
}

/** The tariff's zone and price at an instant: the first zone whose window covers it, else the other hours'. */
export function tariffAt(tariff: Tariff, timeZone: string, at: number): { zone: TariffZone; pricePerKwh: number } {
  const clock = localClock(timeZone, at);
  const zone = tariff.zones.find((candidate) => candidate.windows.some((window) => windowCovers(window, clock)));
  return zone ? { zone: zone.zone, pricePerKwh: zone.pricePerKwh } : tariff.otherHours;
}

/** The ISO weekday of a calendar date (YYYY-MM-DD). */
function weekdayOfDate(date: string): number {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day === 0 ? 7 : day;
}

/**
 * The instants in (`from`, `to`] at which an allowed window or a tariff zone opens or closes,
 * in order: the only instants where starting can become allowed or cheaper.
 */
export function ruleBoundaries(
  rules: Pick<AutopilotRules, 'allowedHours' | 'tariff'>,
  timeZone: string,
  from: number,
  to: number,
): number[] {
  const windows = [...rules.allowedHours, ...(rules.tariff?.zones.flatMap((zone) => zone.windows) ?? [])];
  const found = new Set<number>();
  const last = localDate(timeZone, to);
  // From the day before: a window over midnight that began then closes on `from`'s day.
  for (let date = addDays(localDate(timeZone, from), -1); date <= last; date = addDays(date, 1)) {
    const weekday = weekdayOfDate(date);
    for (const window of windows) {
      if (!window.days.includes(weekday)) continue;
      const start = minutesOfLocalTime(window.start);
      const end = minutesOfLocalTime(window.end);
      const ends = end > start ? end : end + DAY_MINUTES;
      for (const minutes of [start, ends]) {
        const instant =
          minutes >= DAY_MINUTES
            ? localInstant(timeZone, addDays(date, 1), minutes - DAY_MINUTES)
            : localInstant(timeZone, date, minutes);
        if (instant > from && instant <= to) found.add(instant);
      }
    }
  }
  return [...found].sort((a, b) => a - b);
}
