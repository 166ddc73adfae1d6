import { describe, expect, it } from 'vitest';
import {
  type BalanceRecord,
  applyCellRecords,
  recordsOfZone,
  replaceZoneRain,
} from '../../src/modules/water-balance/farm-records';
import { customSeasonCrop } from '../../src/modules/crop-seasons/season-crop';
import { runCells, seasonCurves } from '../../src/modules/water-balance/water-balance';

// A custom crop held still so every figure is by hand: Kc 0.5 all season, roots 0.5 m, p 0.5, on a
// soil of θFC 0.30 and θWP 0.10: TAW = 1000 × 0.2 × 0.5 = 100 mm, RAW 50 mm. ET0 4 mm a day, so
// ETc 2 mm a day and rain under 0.2 × 4 = 0.8 mm is not effective.
const crop = customSeasonCrop({
  kc: { initial: 0.5, midSeason: 0.5, end: 0.5 },
  stages: { initial: 10, development: 10, midSeason: 10, lateSeason: 10 },
  rootDepth: { min: 0.5, max: 0.5 },
  depletionFraction: 0.5,
});
const soil = { fieldCapacity: 0.3, wiltingPoint: 0.1 };
const DAYS = 3;
const EMERGENCE = 20_000; // a day number; the records' days are counted from it
const EFFICIENCY = 0.85;
/** Each cell starts 20 mm below field capacity: no rain below percolates, Ks stays 1. */
const START = 20;
const CELLS = 4;

/** The station's rain of each day: 5 mm on day 2. */
const stationRain = () => Float64Array.from([0, 5, 0]);

/** The zone's cells after three days, with the records entered as the balance enters them. */
function run(records: readonly BalanceRecord[], sectorCells?: Uint8Array) {
  // The zone's cells are grid cells 10–13; sector "S" holds grid cells 12 and 13.
  const zone = { name: 'Maize', gridIndices: [10, 11, 12, 13] };
  const zoneRecords = recordsOfZone(records, zone, (name) => (name === 'S' ? sectorCells : undefined));
  const rain = stationRain();
  replaceZoneRain(rain, zoneRecords, EMERGENCE);
  const reference = Float64Array.from([4, 4, 4]);
  const curves = seasonCurves(crop, soil, {
    referenceEvapotranspiration: reference,
    rain,
    wind: [Number.NaN, Number.NaN, Number.NaN],
    minHumidity: [Number.NaN, Number.NaN, Number.NaN],
  });
  const applied = new Float64Array(DAYS * CELLS);
  const netRain = applyCellRecords(
    zoneRecords,
    applied,
    { first: EMERGENCE, last: EMERGENCE + DAYS - 1, count: CELLS },
    (day) => rain[day - EMERGENCE]!,
    (day) => reference[day - EMERGENCE]!,
  );
  const result = runCells(
    curves,
    { count: CELLS, applied, netRain },
    { efficiency: EFFICIENCY, startDepletion: new Array<number>(CELLS).fill(START) },
  );
  return Array.from(result.finalDepletion);
}

const gauge = (id: number, mm: number, area: BalanceRecord['area'], day = EMERGENCE + 1): BalanceRecord => ({
  id,
  kind: 'rain_gauge',
  day,
  area,
  mm,
});

describe("the farm's records in the balance", () => {
  it('without records: 20 + 3 × 2 − 5 mm of the station = 21 mm', () => {
    expect(run([])).toEqual([21, 21, 21, 21]);
  });

  it("a gauge's 2 mm replacing the station's 5 mm moves the depletion by exactly the effective difference, 3 mm", () => {
    expect(run([gauge(1, 2, { kind: 'machine' })])).toEqual([24, 24, 24, 24]);
    expect(run([gauge(1, 2, { kind: 'zone', name: 'Maize' })])).toEqual([24, 24, 24, 24]);
    // Another zone's gauge does not reach this one.
    expect(run([gauge(1, 2, { kind: 'zone', name: 'Potatoes' })])).toEqual([21, 21, 21, 21]);
  });

  it('a gauge under 0.2 ET0 (0.6 mm < 0.8 mm) is not effective: the 5 mm are taken away whole', () => {
    expect(run([gauge(1, 0.6, { kind: 'machine' })])).toEqual([26, 26, 26, 26]);
  });

  it("a sector's gauge changes only the sector's cells; the narrowest reading of a cell wins", () => {
    const sector = new Uint8Array(20);
    sector[12] = 1;
    sector[13] = 1;
    // 12 mm in the sector: 20 + 6 − 12 = 14 there, the station's 21 elsewhere.
    expect(run([gauge(1, 12, { kind: 'sector', name: 'S' })], sector)).toEqual([21, 21, 14, 14]);
    // The whole machine's gauge 2 mm, recorded after the sector's: the sector keeps its own 12 mm.
    expect(run([gauge(1, 12, { kind: 'sector', name: 'S' }), gauge(2, 2, { kind: 'machine' })], sector)).toEqual([
      24, 24, 14, 14,
    ]);
    // A sector no longer loaded reaches no cell.
    expect(run([gauge(1, 12, { kind: 'sector', name: 'Gone' })], sector)).toEqual([21, 21, 21, 21]);
  });

  it("another source's water is added to the day's water, before the efficiency: 10 mm → 8.5 mm less depletion", () => {
    const water: BalanceRecord = { id: 1, kind: 'irrigation', day: EMERGENCE + 2, area: { kind: 'machine' }, mm: 10 };
    expect(run([water]).map((value) => Math.round(value * 1e9) / 1e9)).toEqual([12.5, 12.5, 12.5, 12.5]);
    // Two records of one day add up; a record outside the days run is left out.
    const twice = [water, { ...water, id: 2 }, { ...water, id: 3, day: EMERGENCE + 5 }];
    expect(run(twice).map((value) => Math.round(value * 1e9) / 1e9)).toEqual([4, 4, 4, 4]);
  });
});
