/**
 * Soil probes correct the model (issue 21 item 3, docs/advice.md "Probes"): a probe's reading
 * gives its cell's depletion by Eq. 87; the zone's cells move by the offset from the model's.
 */
import { METRES_PER_DEGREE, type ProbeDisagreement, type WaterBalanceProbe } from '@pivot/contracts';
import { type SoilWater, depletionFromWaterContent } from '../crop-seasons';

/** A reading older than this before the end of the day asked for is listed, not used. */
export const PROBE_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** Readings older than this before the end of the day are not looked for at all. */
export const PROBE_LOOKBACK_MS = 7 * 24 * 60 * 60 * 1000;

/** A probe's reading: moisture as the protocol sends it, volumetric %; `recorded` when the farm typed it in for the day. */
export type ProbeReading = {
  sensorId: string;
  ts: Date;
  lat: number;
  lng: number;
  moisture: number;
  recorded?: boolean;
};

/**
 * Two probes of a zone disagree when their depletions are further apart than half the zone's RAW
 * (the half of the allowed depletion that decides between watering this week or the next), and
 * never closer than 10 mm: a probe's ±2–3 % of volumetric water over a young crop's 0.3–0.4 m of
 * roots is already ±6–12 mm, which is the probes' own error, not a disagreement.
 */
export const PROBES_DISAGREE_LEAST_MM = 10;
export const PROBES_DISAGREE_SHARE_OF_RAW = 0.5;

/** A crop zone as the correction needs it: its cells' grid indices and depletions, its soil and root zone that day. */
export type ProbeZone = {
  name: string;
  cells: readonly { x: number; y: number }[];
  depletion: Float64Array;
  soil: SoilWater;
  rootDepth: number;
  totalAvailableWater: number;
  readilyAvailableWater: number;
};

/** The grid cell (indices east and north of the centre, as `cellCentre` numbers them) holding a position. */
export function cellOf(
  centre: { lat: number; lng: number },
  step: number,
  position: { lat: number; lng: number },
): { x: number; y: number } {
  const north = (position.lat - centre.lat) * METRES_PER_DEGREE;
  const east = (position.lng - centre.lng) * METRES_PER_DEGREE * Math.cos((centre.lat * Math.PI) / 180);
  return { x: Math.floor(east / step), y: Math.floor(north / step) };
}

function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

/** Where each cell (by `x:y`) is in a list of zones: the zone's index and the cell's place in it. */
export type ZoneCellIndex = ReadonlyMap<string, { zone: number; cell: number }>;

export function zoneCellIndex(zones: readonly Pick<ProbeZone, 'cells'>[]): ZoneCellIndex {
  const cellIndex = new Map<string, { zone: number; cell: number }>();
  zones.forEach((zone, zoneIndex) =>
    zone.cells.forEach((cell, index) => cellIndex.set(`${cell.x}:${cell.y}`, { zone: zoneIndex, cell: index })),
  );
  return cellIndex;
}

/**
 * Each probe's depletion (Eq. 87, held to 0 … TAW) beside its cell's in the model, and the zones'
 * depletions corrected: every cell of a zone moved by the mean offset of its used probes (those
 * read no more than `PROBE_MAX_AGE_MS` before `endOfDay`), held to 0 … TAW. Zones without a used
 * probe keep their arrays; the arrays given are never changed. Where a zone's used probes
 * disagree (further apart than `PROBES_DISAGREE_*`), the zone follows one of them, not their mean
 * (a mean of two probes 30 mm apart is a level neither measured): the one the farm recorded, else
 * the one nearest the model at its cell; the others are listed as `disagrees`.
 */
export function correctByProbes(
  zones: readonly ProbeZone[],
  readings: readonly ProbeReading[],
  grid: { centre: { lat: number; lng: number }; step: number },
  endOfDay: number,
  /** Where each cell is in the zones (`zoneCellIndex`): given by a caller that corrects the same zones day after day. */
  cellIndex?: ZoneCellIndex,
): { probes: WaterBalanceProbe[]; depletions: Float64Array[]; disagreements: ProbeDisagreement[] } {
  // No reading moves nothing: the zones' own arrays, without a look-up of their cells made for none.
  if (readings.length === 0) return { probes: [], depletions: zones.map((zone) => zone.depletion), disagreements: [] };
  const cellOfZones = cellIndex ?? zoneCellIndex(zones);
  const used = zones.map(
    () => [] as { probe: WaterBalanceProbe; offset: number; depletion: number; recorded: boolean }[],
  );
  const probes = [...readings]
    .sort((a, b) => a.sensorId.localeCompare(b.sensorId))
    .map((reading): WaterBalanceProbe => {
      const base = {
        id: reading.sensorId,
        position: [reading.lng, reading.lat] as [number, number],
        readAt: reading.ts.getTime(),
        moisture: reading.moisture,
      };
      const { x, y } = cellOf(grid.centre, grid.step, reading);
      const found = cellOfZones.get(`${x}:${y}`);
      if (!found) {
        return {
          ...base,
          zone: null,
          probeDepletion: null,
          modelDepletion: null,
          offset: null,
          used: false,
          reason: 'outside',
        };
      }
      const zone = zones[found.zone]!;
      const probeDepletion = depletionFromWaterContent(zone.soil, reading.moisture / 100, zone.rootDepth);
      const modelDepletion = zone.depletion[found.cell]!;
      const offset = probeDepletion - modelDepletion;
      const fresh = endOfDay - reading.ts.getTime() <= PROBE_MAX_AGE_MS;
      const probe: WaterBalanceProbe = {
        ...base,
        zone: zone.name,
        probeDepletion: round(probeDepletion, 2),
        modelDepletion: round(modelDepletion, 2),
        offset: round(offset, 2),
        used: fresh,
        ...(fresh ? {} : { reason: 'stale' as const }),
        ...(reading.recorded ? { recorded: true as const } : {}),
      };
      if (fresh)
        used[found.zone]!.push({ probe, offset, depletion: probeDepletion, recorded: reading.recorded === true });
      return probe;
    });
  const disagreements: ProbeDisagreement[] = [];
  const depletions = zones.map((zone, index) => {
    let zoneProbes = used[index]!;
    if (zoneProbes.length === 0) return zone.depletion;
    const depletionsOfProbes = zoneProbes.map((entry) => entry.depletion);
    const spread = Math.max(...depletionsOfProbes) - Math.min(...depletionsOfProbes);
    const threshold = Math.max(PROBES_DISAGREE_LEAST_MM, PROBES_DISAGREE_SHARE_OF_RAW * zone.readilyAvailableWater);
    if (zoneProbes.length > 1 && spread > threshold) {
      const recorded = zoneProbes.filter((entry) => entry.recorded);
      const candidates = recorded.length > 0 ? recorded : zoneProbes;
      const followed = candidates.reduce((best, entry) =>
        Math.abs(entry.offset) < Math.abs(best.offset) ? entry : best,
      );
      for (const entry of zoneProbes) {
        if (entry === followed) continue;
        entry.probe.used = false;
        entry.probe.reason = 'disagrees';
      }
      disagreements.push({
        zone: zone.name,
        probes: zoneProbes.map((entry) => entry.probe.id),
        spread: round(spread, 2),
        threshold: round(threshold, 2),
        follows: followed.probe.id,
        reason: recorded.length > 0 ? 'recorded' : 'closest_to_model',
      });
      zoneProbes = [followed];
    }
    const offset = zoneProbes.reduce((sum, entry) => sum + entry.offset, 0) / zoneProbes.length;
    return zone.depletion.map((depletion) => Math.min(zone.totalAvailableWater, Math.max(0, depletion + offset)));
  });
  return { probes, depletions, disagreements };
}

/**
 * Each probe's newest reading at or before `endOfDay`, if read no more than `PROBE_MAX_AGE_MS`
 * before it: what corrects a past day (docs/advice.md, "Probes", "Every day corrected").
 */
export function freshReadingsAt(readings: readonly ProbeReading[], endOfDay: number): ProbeReading[] {
  const newest = new Map<string, ProbeReading>();
  for (const reading of readings) {
    const time = reading.ts.getTime();
    if (time >= endOfDay || endOfDay - time > PROBE_MAX_AGE_MS) continue;
    const known = newest.get(reading.sensorId);
    if (!known || known.ts.getTime() < time) newest.set(reading.sensorId, reading);
  }
  return [...newest.values()];
}

/**
 * `freshReadingsAt` for one day after another, each reading looked at once over all of them: a
 * season's days each scanning every reading of the season cost days² × probes. `at` gives the readings
 * `freshReadingsAt(readings, endOfDay)` gives (each probe's newest, the first listed of equal
 * times); asked for an earlier end than the last, it scans them all, as that does.
 */
export function freshReadingsDayByDay(readings: readonly ProbeReading[]): { at: (endOfDay: number) => ProbeReading[] } {
  const bySensor = new Map<string, ProbeReading[]>();
  for (const reading of readings) {
    const list = bySensor.get(reading.sensorId);
    if (list) list.push(reading);
    else bySensor.set(reading.sensorId, [reading]);
  }
  // Oldest first, the listed order kept among equal times (a stable sort).
  const sensors = [...bySensor.values()].map((list) => ({
    list: list.sort((a, b) => a.ts.getTime() - b.ts.getTime()),
    /** How many of the list were read before the last end asked for, and where the newest of them begin. */
    before: 0,
    newestFrom: 0,
  }));
  let lastEnd = Number.NEGATIVE_INFINITY;
  return {
    at(endOfDay) {
      if (endOfDay < lastEnd) return freshReadingsAt(readings, endOfDay);
      lastEnd = endOfDay;
      const fresh: ProbeReading[] = [];
      for (const sensor of sensors) {
        const { list } = sensor;
        while (sensor.before < list.length && list[sensor.before]!.ts.getTime() < endOfDay) {
          if (sensor.before === 0 || list[sensor.before]!.ts.getTime() !== list[sensor.before - 1]!.ts.getTime()) {
            sensor.newestFrom = sensor.before;
          }
          sensor.before += 1;
        }
        if (sensor.before === 0) continue;
        const newest = list[sensor.newestFrom]!;
        if (endOfDay - newest.ts.getTime() <= PROBE_MAX_AGE_MS) fresh.push(newest);
      }
      return fresh;
    },
  };
}

/**
 * How early before the start of a season's first day a probe's reading may start the season: a
 * reading from then through the end of that day says where the season starts (docs/advice.md,
 * "Probes": "The season's start").
 */
export const SEASON_START_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * The depletion a zone's season starts from, by its probes' readings around emergence (each
 * probe's newest in the window, those whose cell is the zone's): the mean of their Eq. 87
 * depletions with the zone's θFC and its root depth on the first day, each held to 0 … TAW; null
 * without such a reading, and the season starts at field capacity.
 */
export function seasonStartDepletion(
  readings: readonly ProbeReading[],
  soil: SoilWater,
  rootDepth: number,
): number | null {
  if (readings.length === 0) return null;
  const sum = readings.reduce(
    (total, reading) => total + depletionFromWaterContent(soil, reading.moisture / 100, rootDepth),
    0,
  );
  return sum / readings.length;
}

/** The readings whose probe stands in one of the cells (grid indices east and north of the centre). */
export function readingsInCells(
  readings: readonly ProbeReading[],
  cells: readonly { x: number; y: number }[],
  grid: { centre: { lat: number; lng: number }; step: number },
): ProbeReading[] {
  if (readings.length === 0) return [];
  const keys = new Set(cells.map((cell) => `${cell.x}:${cell.y}`));
  return readings.filter((reading) => {
    const { x, y } = cellOf(grid.centre, grid.step, reading);
    return keys.has(`${x}:${y}`);
  });
}
