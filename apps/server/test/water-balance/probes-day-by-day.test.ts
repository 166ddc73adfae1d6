import { describe, expect, it } from 'vitest';
import {
  PROBE_MAX_AGE_MS,
  type ProbeReading,
  freshReadingsAt,
  freshReadingsDayByDay,
} from '../../src/modules/water-balance/probes';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const FIRST_END = Date.UTC(2026, 3, 1, 22);

/** The same readings, in one order, whatever order they were given in. */
const bySensor = (readings: readonly ProbeReading[]) =>
  [...readings].sort((a, b) => a.sensorId.localeCompare(b.sensorId));

/** A small deterministic generator: the same readings on every run. */
function numbers(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    return state / 2 ** 32;
  };
}

describe('freshReadingsDayByDay', () => {
  it("gives each day's end the readings freshReadingsAt gives, a reading looked at once", () => {
    const random = numbers(34);
    const readings: ProbeReading[] = [];
    for (let day = 0; day < 60; day += 1) {
      for (const sensorId of ['SOIL-B', 'SOIL-A', 'SOIL-C']) {
        // Some days silent (a stale or no reading then), some read twice, one at a day's very end.
        if (random() < 0.25) continue;
        const times = random() < 0.2 ? 2 : 1;
        for (let index = 0; index < times; index += 1) {
          const ts = FIRST_END + (day - 1) * DAY_MS + Math.floor(random() * DAY_MS);
          readings.push({ sensorId, ts: new Date(ts), lat: 52, lng: 17, moisture: 15 + random() * 10 });
        }
      }
    }
    // Given out of time order, as two queries' rows put together are; one reading exactly at an end.
    readings.reverse();
    readings.push({ sensorId: 'SOIL-A', ts: new Date(FIRST_END + 10 * DAY_MS), lat: 52, lng: 17, moisture: 20 });
    // Two readings of one time: the first listed is the newest, as freshReadingsAt takes it.
    const twin = FIRST_END + 20 * DAY_MS - HOUR_MS;
    readings.push({ sensorId: 'SOIL-D', ts: new Date(twin), lat: 52, lng: 17, moisture: 21 });
    readings.push({ sensorId: 'SOIL-D', ts: new Date(twin), lat: 52, lng: 17, moisture: 22 });

    const dayByDay = freshReadingsDayByDay(readings);
    let used = 0;
    for (let day = 0; day < 62; day += 1) {
      const end = FIRST_END + day * DAY_MS;
      const expected = freshReadingsAt(readings, end);
      used += expected.length;
      const fresh = dayByDay.at(end);
      expect(bySensor(fresh), `day ${day}`).toEqual(bySensor(expected));
      if (day === 20) expect(fresh.find((reading) => reading.sensorId === 'SOIL-D')).toMatchObject({ moisture: 21 });
    }
    expect(used).toBeGreaterThan(100);
  });

  it('answers an earlier end than the last as freshReadingsAt does', () => {
    const reading = (hoursBeforeFirstEnd: number): ProbeReading => ({
      sensorId: 'SOIL-A',
      ts: new Date(FIRST_END - hoursBeforeFirstEnd * HOUR_MS),
      lat: 52,
      lng: 17,
      moisture: 20 + hoursBeforeFirstEnd,
    });
    const readings = [reading(2), reading(-20)];
    const dayByDay = freshReadingsDayByDay(readings);
    expect(dayByDay.at(FIRST_END + DAY_MS)).toEqual([readings[1]]);
    expect(dayByDay.at(FIRST_END)).toEqual([readings[0]]);
    // Older than a day before the end: not fresh.
    expect(dayByDay.at(FIRST_END + PROBE_MAX_AGE_MS + 3 * HOUR_MS)).toEqual(
      freshReadingsAt(readings, FIRST_END + PROBE_MAX_AGE_MS + 3 * HOUR_MS),
    );
  });
});
