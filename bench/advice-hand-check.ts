/**
 * The advice redone by hand, as an agronomist would check it (issue 34, docs/advice.md, "Checking
 * the advice by hand"): against a running server, through its public API only, one machine's
 * season series is recomputed day by day with FAO-56 chapter 8's formulas written out in
 * `support/fao56-by-hand.ts` (not the server's code) from the station's daily weather, the crop
 * season, the water the series says was applied, the farm's rain gauges and the probe readings
 * each day's balance lists. Then the advice's doses, percent timers and the program from the
 * advice are printed with each sector's depletion on the day the arm gets there.
 *
 *   npm run check:advice -- --url http://127.0.0.1:3000 --email demo@pivot.local --password … [--machine PIVOT-01] [--date dd.mm.yyyy]
 *
 * Exits 1 when any quantity differs by more than 0.01 mm (0.001 for Kc and Ks), or a dose is
 * above the depletion it is meant to refill.
 */
import {
  CropSeasonListSchema,
  type CropSeason,
  FarmRecordListSchema,
  type FarmRecord,
  ProgramFromAdviceSchema,
  SprinklerListResponseSchema,
  StationDaysSchema,
  type StationDays,
  WaterBalanceSchema,
  type WaterBalance,
  WaterBalanceSeasonSchema,
  WatermapResponseSchema,
  type WaterBalanceSeasonArea,
} from '@pivot/contracts';
import { HttpSession } from '@pivot/e2e/support/http-session';
import type { z } from 'zod';
import {
  HAND_CROPS,
  HAND_SOILS,
  type TableCrop,
  balanceDay,
  climateAdjusted,
  doseOf,
  effectiveRain,
  kcOnDay,
  pAdjusted,
  probeDepletion,
  rootDepthOnDay,
  stageOf,
  totalAvailableWater,
} from './support/fao56-by-hand';

const MM_TOLERANCE = 0.01;
const COEFFICIENT_TOLERANCE = 0.001;
/** The watermap serves each cell's mm to 0.1: its mean may be off the series' unrounded mean by up to 0.05 mm. */
const WATERMAP_ROUNDING = 0.05;
const DEFAULT_EFFICIENCY = 0.85;
const STANDARD_WIND = 2;
const STANDARD_MIN_HUMIDITY = 45;
const DAY_MS = 86_400_000;

type Quantity = 'kc' | 'et0' | 'etc' | 'taw' | 'raw' | 'effectiveRain' | 'ks' | 'depletion';
const QUANTITIES: Quantity[] = ['kc', 'et0', 'etc', 'taw', 'raw', 'effectiveRain', 'ks', 'depletion'];
const isCoefficient = (quantity: Quantity) => quantity === 'kc' || quantity === 'ks';

type Worst = { difference: number; day: string; expected: number; answered: number };

function readArguments(argv: string[]): Record<string, string> {
  const options: Record<string, string> = {};
  for (let index = 0; index < argv.length; index += 1) {
    const name = argv[index];
    const value = argv[index + 1];
    if (name?.startsWith('--') && value !== undefined) {
      options[name.slice(2)] = value;
      index += 1;
    }
  }
  return options;
}

/** dd.mm.yyyy → ms of that UTC midnight: the check counts calendar days, not hours. */
function dayMs(dotted: string): number {
  const [day, month, year] = dotted.split('.').map(Number);
  return Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 1);
}

function dotted(ms: number): string {
  const [year, month, day] = new Date(ms).toISOString().slice(0, 10).split('-');
  return `${day}.${month}.${year}`;
}

async function getJson<T>(session: HttpSession, path: string, schema: z.ZodType<T>): Promise<T> {
  const response = await session.call('GET', path);
  if (response.status !== 200)
    throw new Error(`GET ${path} answered ${response.status}: ${JSON.stringify(response.body)}`);
  return schema.parse(response.body);
}

/** The crop of a season as the hand check's table has it (a custom crop as typed in, never adjusted). */
function cropOf(season: CropSeason): TableCrop {
  if (typeof season.crop === 'string') {
    const crop = HAND_CROPS[season.crop];
    if (!crop) throw new Error(`crop ${season.crop} is not in docs/advice.md's table`);
    return crop;
  }
  const { kc, stages, rootDepth, p } = season.crop;
  return { kc, height: null, stages, rootDepth, p, adjustP: false };
}

function soilOf(season: CropSeason): { fieldCapacity: number; wiltingPoint: number } {
  if (typeof season.soil !== 'string') return season.soil;
  const soil = HAND_SOILS[season.soil];
  if (!soil) throw new Error(`soil ${season.soil} is not in docs/advice.md's table`);
  return soil;
}

type WeatherDay = StationDays['days'][number];

/** The mean of the days' values the station reported; the standard climate's when none. */
function meanOf(days: WeatherDay[], pick: (day: WeatherDay) => number | null, standard: number): number {
  const values = days.map(pick).filter((value): value is number => value !== null);
  return values.length === 0 ? standard : values.reduce((sum, value) => sum + value, 0) / values.length;
}

/**
 * Kc of season day `day` (Eq. 66 with Eq. 62 and 65) as docs/advice.md takes the climate: Kc mid
 * adjusted by the mid-season's days so far (before it, the season's days so far), Kc end (when
 * Table 12's is at least 0.45) by the late season's so far (a coming day's weather: the recent means).
 */
function kcByHand(crop: TableCrop, emergenceMs: number, day: number, weather: Map<number, WeatherDay>) {
  const [kcIni, kcMid, kcEnd] = crop.kc;
  if (crop.height === null) return kcOnDay(crop.kc, crop.stages, day);
  const [initial, development, midSeason] = crop.stages;
  const daysBetween = (first: number, last: number) => {
    const days: WeatherDay[] = [];
    for (let seasonDay = first; seasonDay <= last; seasonDay += 1) {
      const ms = emergenceMs + (seasonDay - 1) * DAY_MS;
      const weatherDay = weather.get(ms);
      if (weatherDay) days.push(weatherDay);
    }
    return days;
  };
  const adjust = (kc: number, days: WeatherDay[], height: number) =>
    climateAdjusted(
      kc,
      meanOf(days, (d) => d.wind, STANDARD_WIND),
      meanOf(days, (d) => d.minHumidity, STANDARD_MIN_HUMIDITY),
      height,
    );
  const startOfMid = initial + development + 1;
  const startOfLate = startOfMid + midSeason;
  const stage = stageOf(crop.stages, day);
  const midDays =
    stage === 'initial' || stage === 'development'
      ? daysBetween(1, day)
      : daysBetween(startOfMid, Math.min(day, startOfLate - 1));
  const adjustedMid = adjust(kcMid, midDays, crop.height);
  const adjustedEnd = kcEnd >= 0.45 ? adjust(kcEnd, daysBetween(startOfLate, day), crop.height) : kcEnd;
  return kcOnDay([kcIni, adjustedMid, adjustedEnd], crop.stages, day);
}

type DayCheck = { expected: Record<Quantity, number>; start: number };

function main(): Promise<number> {
  return run(readArguments(process.argv.slice(2)));
}

async function run(options: Record<string, string>): Promise<number> {
  const baseUrl = options.url ?? 'http://127.0.0.1:3000';
  if (!options.email || !options.password)
    throw new Error('give --email and --password of a user the machine is granted to');
  const session = new HttpSession(baseUrl);
  await session.login(options.email, options.password);
  const machines = await getJson(session, '/api/sprinkler/', SprinklerListResponseSchema);
  const wanted = options.machine;
  const machine = machines.find((m) =>
    wanted ? m.name === wanted || m.internalId === wanted || String(m.id) === wanted : true,
  );
  if (!machine) throw new Error(`no machine ${wanted ?? ''} among ${machines.map((m) => m.internalId).join(', ')}`);
  const dateQuery = options.date ? `?date=${options.date}` : '';
  const base = `/api/sprinkler/${machine.id}`;
  const series = await getJson(session, `${base}/water-balance/season/${dateQuery}`, WaterBalanceSeasonSchema);
  out(
    `Machine ${machine.internalId} (${machine.name}), balance of ${series.date}, station ${series.station ?? '—'}, forecast ${series.forecast}${series.forecastFallback ? ` (${series.forecastFallback})` : ''}`,
  );
  if (series.reason !== null || series.station === null) {
    out(`No season to check: ${series.reason ?? 'no station'}`);
    return 0;
  }
  const seasons = await getJson(session, `${base}/crop-seasons/`, CropSeasonListSchema);
  const records = await getJson(session, `${base}/records/`, FarmRecordListSchema);
  const dateMs = dayMs(series.date);
  const firstMs = Math.min(...series.zones.map((zone) => dayMs(zone.firstDay)));
  const station = await getJson(
    session,
    `/api/weather-station/${encodeURIComponent(series.station)}/days/?start=${dotted(firstMs)}&stop=${series.date}`,
    StationDaysSchema,
  );
  const weather = new Map(station.days.map((day) => [dayMs(day.date), day]));
  // The coming days' wind and humidity are the last 7 days' means (docs/advice.md, "The coming
  // days"), and with no forecast their ET0 is the last 7 days' mean too: a coming day's Kc takes them.
  const recent = station.days.filter((day) => dayMs(day.date) > dateMs - 7 * DAY_MS);
  const lastDay = station.days.at(-1);
  const lastForecastMs = Math.max(
    ...[...series.zones, ...series.sectors].map((area) => dayMs(area.firstDay) + (area.depletion.length - 1) * DAY_MS),
  );
  if (lastDay)
    for (let ms = dateMs + DAY_MS; ms <= lastForecastMs; ms += DAY_MS)
      weather.set(ms, {
        ...lastDay,
        date: dotted(ms),
        et0: meanOf(recent, (day) => day.et0, 0),
        rain: 0,
        wind: meanOf(recent, (day) => day.wind, STANDARD_WIND),
        minHumidity: meanOf(recent, (day) => day.minHumidity, STANDARD_MIN_HUMIDITY),
      });
  out(
    `Station ${station.id}: ${station.days.length} days from ${dotted(firstMs)} to ${series.date} (${station.timeZone})`,
  );

  // Each measured day's balance, for the probes it lists (the series says nothing of them).
  const balances = new Map<number, WaterBalance>();
  for (let ms = firstMs; ms <= dateMs; ms += DAY_MS) {
    balances.set(ms, await getJson(session, `${base}/water-balance/?date=${dotted(ms)}`, WaterBalanceSchema));
  }
  const balance = balances.get(dateMs);
  if (!balance) throw new Error('no balance of the date');

  // The watermap of each measured day on which the series says any zone took water: every cell's mm.
  const water = new Map<number, Map<string, number>>();
  for (let ms = firstMs; ms <= dateMs; ms += DAY_MS) {
    const watered = series.zones.some(
      (zone) => (zone.applied[Math.round((ms - dayMs(zone.firstDay)) / DAY_MS)] ?? 0) > 0,
    );
    if (!watered) continue;
    const map = await getJson(
      session,
      `${base}/watermap/?start=${dotted(ms)}&stop=${dotted(ms)}`,
      WatermapResponseSchema,
    );
    water.set(ms, new Map(map.data.map(([lat, lng, mm]) => [cellKey(lat, lng), mm])));
  }
  out(
    `Watermap: ${water.size} days with water read cell by cell; ${balance.cells.length} zone cells of ${balance.step} m`,
  );

  let failed = false;
  /** Each zone's probe offset of each day, from the cell-by-cell run: the mean-step check below moves its means by them. */
  const zoneOffsets = new Map<string, Map<number, number>>();
  for (const zone of series.zones) {
    const season = seasons.find((s) => s.name === zone.name);
    if (!season) continue;
    const cells = cellsOfZone(balance, zone, series.zones);
    if (cells === null) {
      out(`zone ${zone.name}: its cells cannot be told from another zone's by TAW: no cell-by-cell run`);
      continue;
    }
    const run = runCellByCell(zone, season, cells, weather, balances, water, records, dateMs, station.timeZone);
    zoneOffsets.set(zone.name, run.offsets);
    failed = run.failed || failed;
  }

  const areas: { kind: string; area: WaterBalanceSeasonArea; zoneName: string | null }[] = [
    ...series.zones.map((area) => ({ kind: 'zone', area, zoneName: area.name })),
    ...series.sectors.map((area) => ({ kind: 'sector', area, zoneName: zoneOfSector(area, series.zones) })),
  ];
  for (const { kind, area, zoneName } of areas) {
    const season = seasons.find((s) => s.name === zoneName);
    out('');
    if (!season || !zoneName) {
      out(`${kind} ${area.name}: spans several zones (or none): not checked by hand`);
      continue;
    }
    const worst = checkArea(area, season, zoneName, weather, balances, records, dateMs, {
      showDays: options.days === 'yes',
      offsets: zoneOffsets.get(zoneName),
      recentEt0: series.forecast === 'recent-et0' ? meanOf(recent, (day) => day.et0, 0) : null,
    });
    out(
      `${kind} ${area.name} (${zoneName}: ${typeof season.crop === 'string' ? season.crop : 'custom crop'} on ${typeof season.soil === 'string' ? season.soil : 'own soil'}, emerged ${season.emergence}; ${area.measuredDays} measured days, ${area.depletion.length - area.measuredDays} forecast)`,
    );
    out(
      '  (* a forecast day; depletion and Ks on the forecast days only: the measured days are the cell-by-cell run above)',
    );
    out('  quantity       largest difference   day          expected   answered');
    for (const quantity of QUANTITIES) {
      const entry = worst[quantity];
      const limit = isCoefficient(quantity) ? COEFFICIENT_TOLERANCE : MM_TOLERANCE;
      const over = entry.difference > limit;
      failed ||= over;
      out(
        `  ${quantity.padEnd(14)} ${entry.difference.toFixed(isCoefficient(quantity) ? 4 : 3).padStart(18)}   ${entry.day.padEnd(12)} ${entry.expected.toFixed(3).padStart(8)}   ${entry.answered.toFixed(3).padStart(8)}${over ? '   ← over ' + String(limit) : ''}`,
      );
    }
  }

  failed = printAdvice(balance, seasons, series.zones) || failed;
  const program = await getJson(session, `${base}/program-from-advice/`, ProgramFromAdviceSchema);
  failed = printProgram(program, balance) || failed;
  out('');
  out(
    failed ? 'RESULT: disagreements found (above)' : 'RESULT: every number agrees within 0.01 mm (0.001 for Kc and Ks)',
  );
  return failed ? 1 : 0;
}

/** The zone a sector's numbers are of: the one whose TAW it shares on every day (a sector over one zone). */
function zoneOfSector(sector: WaterBalanceSeasonArea, zones: WaterBalanceSeasonArea[]): string | null {
  const matching = zones.filter(
    (zone) =>
      zone.firstDay === sector.firstDay &&
      zone.taw
        .slice(0, sector.measuredDays)
        .every((taw, index) => Math.abs(taw - (sector.taw[index] ?? Number.NaN)) < 1e-9),
  );
  return matching.length === 1 ? (matching[0]?.name ?? null) : null;
}

/** The rain a zone took that day: a gauge on the machine or the zone replaces the station's (the last recorded wins). */
function rainOf(records: FarmRecord[], zoneName: string, date: string, stationRain: number): number {
  const gauges = records.filter(
    (record): record is Extract<FarmRecord, { kind: 'rain_gauge' }> =>
      record.kind === 'rain_gauge' &&
      record.date === date &&
      (record.area.kind === 'machine' || (record.area.kind === 'zone' && record.area.name === zoneName)),
  );
  const zoneGauge = gauges
    .filter((g) => g.area.kind === 'zone')
    .sort((a, b) => a.createdAt - b.createdAt)
    .at(-1);
  const machineGauge = gauges
    .filter((g) => g.area.kind === 'machine')
    .sort((a, b) => a.createdAt - b.createdAt)
    .at(-1);
  const gauge = zoneGauge ?? machineGauge;
  return gauge ? gauge.mm : stationRain;
}

function checkArea(
  area: WaterBalanceSeasonArea,
  season: CropSeason,
  zoneName: string,
  weather: Map<number, WeatherDay>,
  balances: Map<number, WaterBalance>,
  records: FarmRecord[],
  dateMs: number,
  {
    showDays,
    offsets,
    recentEt0,
  }: { showDays: boolean; offsets: Map<number, number> | undefined; recentEt0: number | null },
): Record<Quantity, Worst> {
  const crop = cropOf(season);
  const soil = soilOf(season);
  const efficiency = season.efficiency ?? DEFAULT_EFFICIENCY;
  const emergenceMs = dayMs(season.emergence);
  const firstMs = dayMs(area.firstDay);
  const worst = Object.fromEntries(
    QUANTITIES.map((q) => [q, { difference: 0, day: '—', expected: 0, answered: 0 }]),
  ) as Record<Quantity, Worst>;
  for (let index = 0; index < area.depletion.length; index += 1) {
    const ms = firstMs + index * DAY_MS;
    const date = dotted(ms);
    const measured = index < area.measuredDays;
    const day = Math.round((ms - emergenceMs) / DAY_MS) + 1;
    const weatherDay = weather.get(ms);
    // A measured day's weather is the station's; a forecast day's ET0 and rain are the forecast's (the series').
    const et0 = measured ? (weatherDay?.et0 ?? 0) : (recentEt0 ?? area.et0[index] ?? 0);
    const stationRain = measured ? (weatherDay?.rain ?? 0) : (area.rain[index] ?? 0);
    const rain = measured ? rainOf(records, zoneName, date, stationRain) : stationRain;
    const kc = kcByHand(crop, emergenceMs, day, weather);
    const etc = kc * et0;
    const zr = rootDepthOnDay(crop, day);
    const taw = totalAvailableWater(soil.fieldCapacity, soil.wiltingPoint, zr);
    const p = season.p ?? (crop.adjustP ? pAdjusted(crop.p, etc) : crop.p);
    const raw = p * taw;
    const peff = effectiveRain(rain, et0);
    // Each day is stepped from the depletion the answer gave for the day before (the season
    // starts at field capacity): so one wrong day shows on its own day, not on every later one.
    const previous = index === 0 ? 0 : (area.depletion[index - 1] ?? 0);
    const applied = measured ? (area.applied[index] ?? 0) : 0;
    const step = balanceDay(previous, peff, applied * efficiency, etc, taw, raw);
    let depletion = step.depletion;
    const probes = measured
      ? (balances.get(ms)?.probes ?? []).filter((probe) => probe.zone === zoneName && probe.used)
      : [];
    const knownOffset = offsets?.get(ms);
    if (knownOffset !== undefined) depletion = Math.min(Math.max(depletion + knownOffset, 0), taw);
    else if (probes.length > 0) {
      // Eq. 87 for each used probe, and the zone's cells moved by the probes' mean offset from
      // the model at their cells (docs/advice.md, "The correction").
      const offsets = probes.map(
        (probe) => probeDepletion(soil.fieldCapacity, probe.moisture / 100, zr, taw) - (probe.modelDepletion ?? 0),
      );
      const offset = offsets.reduce((sum, value) => sum + value, 0) / offsets.length;
      depletion = Math.min(Math.max(depletion + offset, 0), taw);
    }
    const expected: DayCheck['expected'] = { kc, et0, etc, taw, raw, effectiveRain: peff, ks: step.ks, depletion };
    if (showDays)
      out(
        `    ${date}${measured ? ' ' : '*'} day ${String(day).padStart(3)} Kc ${kc.toFixed(3)} ET0 ${et0.toFixed(2)} ETc ${etc.toFixed(2)} rain ${rain.toFixed(1)}→${peff.toFixed(1)} I ${applied.toFixed(2)}×${efficiency} TAW ${taw.toFixed(2)} RAW ${raw.toFixed(2)} Dr ${previous.toFixed(2)}→${step.depletion.toFixed(2)}${probes.length > 0 ? ` probes ${probes.map((p) => `${p.id} ${p.moisture}%`).join(', ')} → ${depletion.toFixed(2)}` : ''} answered ${(area.depletion[index] ?? Number.NaN).toFixed(2)} Ks ${step.ks.toFixed(3)}/${(area.ks[index] ?? Number.NaN).toFixed(3)}`,
      );
    const answered: Record<Quantity, number | undefined> = {
      kc: area.kc[index],
      et0: area.et0[index],
      etc: area.etc[index],
      taw: area.taw[index],
      raw: area.raw[index],
      effectiveRain: area.effectiveRain[index],
      ks: area.ks[index],
      depletion: area.depletion[index],
    };
    for (const quantity of QUANTITIES) {
      const value = answered[quantity];
      if (value === undefined) continue;
      // A measured day's mean cannot be stepped from the day before's mean (a cell refilled past
      // field capacity percolates and its neighbour does not; one cell past RAW is stressed and
      // another not): the cell-by-cell run checks those. The forecast days step from the mean.
      if ((quantity === 'depletion' || quantity === 'ks') && measured) continue;
      const difference = Math.abs(value - expected[quantity]);
      if (difference > worst[quantity].difference)
        worst[quantity] = {
          difference,
          day: `${date}${measured ? '' : '*'}`,
          expected: expected[quantity],
          answered: value,
        };
    }
  }
  return worst;
}

function cellKey(lat: number, lng: number): string {
  return `${lat}|${lng}`;
}

/**
 * A zone's cells among the balance's: those whose TAW on the date is the zone's (a machine of one
 * zone: all). Null when another zone has the same TAW, so the cells cannot be told apart.
 */
function cellsOfZone(balance: WaterBalance, zone: WaterBalanceSeasonArea, zones: WaterBalanceSeasonArea[]) {
  const tawOf = (area: WaterBalanceSeasonArea) => Math.round((area.taw[area.measuredDays - 1] ?? 0) * 10) / 10;
  if (zones.length === 1) return balance.cells;
  if (zones.some((other) => other !== zone && tawOf(other) === tawOf(zone))) return null;
  return balance.cells.filter((cell) => Math.abs(cell[3] - tawOf(zone)) < 0.051);
}

/** Local midnight (in `timeZone`) that starts the UTC calendar day `ms`, as ms since the epoch. */
function localMidnight(ms: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    hourCycle: 'h23',
    minute: '2-digit',
  }).formatToParts(new Date(ms));
  const hour = Number(parts.find((part) => part.type === 'hour')?.value ?? 0);
  const minute = Number(parts.find((part) => part.type === 'minute')?.value ?? 0);
  const offset = (hour >= 12 ? hour - 24 : hour) * 3_600_000 + minute * 60_000;
  return ms - offset;
}

/**
 * The zone run as the balance runs it, cell by cell: each cell's water is the watermap's of the
 * day, the season starts at field capacity or at the probes read from 24 hours before emergence
 * through its day (Eq. 87 with Zr min), and each day's end is moved by the mean offset of the
 * zone's used probes from the model at their cells. Every day's mean depletion, mean Ks and mean
 * water are compared with the series', and each probe's model depletion with the answer's.
 */
function runCellByCell(
  zone: WaterBalanceSeasonArea,
  season: CropSeason,
  cells: WaterBalance['cells'],
  weather: Map<number, WeatherDay>,
  balances: Map<number, WaterBalance>,
  water: Map<number, Map<string, number>>,
  records: FarmRecord[],
  dateMs: number,
  timeZone: string,
): { failed: boolean; offsets: Map<number, number> } {
  const offsetOfDay = new Map<number, number>();
  const crop = cropOf(season);
  const soil = soilOf(season);
  const efficiency = season.efficiency ?? DEFAULT_EFFICIENCY;
  const emergenceMs = dayMs(season.emergence);
  const firstMs = dayMs(zone.firstDay);
  const keys = cells.map(([lat, lng]) => cellKey(lat, lng));
  const depletions = new Float64Array(cells.length);
  const worst: Record<'depletion' | 'ks' | 'applied' | 'probeModel', Worst> = {
    depletion: { difference: 0, day: '—', expected: 0, answered: 0 },
    ks: { difference: 0, day: '—', expected: 0, answered: 0 },
    applied: { difference: 0, day: '—', expected: 0, answered: 0 },
    probeModel: { difference: 0, day: '—', expected: 0, answered: 0 },
  };
  const note = (key: keyof typeof worst, date: string, expected: number, answered: number, allowance = 0) => {
    const difference = Math.max(0, Math.abs(expected - answered) - allowance);
    if (difference > worst[key].difference) worst[key] = { difference, day: date, expected, answered };
  };
  const cellOfProbe = ([lng, lat]: [number, number]) => {
    let best = 0;
    let bestDistance = Infinity;
    cells.forEach(([cellLat, cellLng], index) => {
      const distance =
        ((cellLat - lat) * 111_320) ** 2 + ((cellLng - lng) * 111_320 * Math.cos((lat * Math.PI) / 180)) ** 2;
      // A probe on a cell's edge is in the cell north (east) of it: the grid's cells are counted by
      // rounding the metres east and north of the centre down, so an edge is its upper cell's.
      const tie = Math.abs(distance - bestDistance) < 1e-6;
      const upper = tie && (cellLat > (cells[best]?.[0] ?? Infinity) || cellLng > (cells[best]?.[1] ?? Infinity));
      if (distance < bestDistance - 1e-6 || upper) [best, bestDistance] = [index, distance];
    });
    return best;
  };
  let startedFrom = 'field capacity';
  let watered = false;
  for (let index = 0; index < zone.measuredDays; index += 1) {
    const ms = firstMs + index * DAY_MS;
    const date = dotted(ms);
    const day = Math.round((ms - emergenceMs) / DAY_MS) + 1;
    if (day < 1) continue;
    const weatherDay = weather.get(ms);
    const et0 = weatherDay?.et0 ?? 0;
    const rain = rainOf(records, zone.name, date, weatherDay?.rain ?? 0);
    const kc = kcByHand(crop, emergenceMs, day, weather);
    const etc = kc * et0;
    const zr = rootDepthOnDay(crop, day);
    const taw = totalAvailableWater(soil.fieldCapacity, soil.wiltingPoint, zr);
    const raw = (season.p ?? (crop.adjustP ? pAdjusted(crop.p, etc) : crop.p)) * taw;
    const peff = effectiveRain(rain, et0);
    const probes = (balances.get(ms)?.probes ?? []).filter((probe) => probe.zone === zone.name);
    if (day === 1) {
      // The season's start: the probes' newest readings from 24 h before emergence's local midnight through its day.
      const windowStart = localMidnight(ms, timeZone) - DAY_MS;
      const starting = probes.filter((probe) => probe.readAt >= windowStart);
      if (starting.length > 0) {
        const start =
          starting.reduce((sum, probe) => sum + probeDepletion(soil.fieldCapacity, probe.moisture / 100, zr, taw), 0) /
          starting.length;
        depletions.fill(start);
        startedFrom = `${start.toFixed(2)} mm by ${starting.map((probe) => probe.id).join(', ')}`;
      }
    }
    const dayWater = water.get(ms);
    let ksSum = 0;
    let waterSum = 0;
    const irrigationRecords = records.filter(
      (record): record is Extract<FarmRecord, { kind: 'irrigation' }> =>
        record.kind === 'irrigation' &&
        record.date === date &&
        (record.area.kind === 'machine' || (record.area.kind === 'zone' && record.area.name === zone.name)),
    );
    const recordedWater = irrigationRecords.reduce((sum, record) => sum + record.mm, 0);
    keys.forEach((key, cell) => {
      const applied = (dayWater?.get(key) ?? 0) + recordedWater;
      waterSum += applied;
      const step = balanceDay(depletions[cell] ?? 0, peff, applied * efficiency, etc, taw, raw);
      ksSum += step.ks;
      depletions[cell] = step.depletion;
    });
    // The watermap serves each cell's water to 0.1 mm while the balance takes it unrounded: a cell's
    // depletion may be off by up to 0.05 × efficiency a pass, carried until the cell is refilled, and
    // a probe's cell moves every cell through the offset. Once water came, that much is allowed.
    watered ||= waterSum > 0;
    const waterAllowance = watered ? WATERMAP_ROUNDING * efficiency : 0;
    const used = probes.filter((probe) => probe.used);
    if (used.length > 0) {
      const offsets = used.map((probe) => {
        const model = depletions[cellOfProbe(probe.position)] ?? 0;
        note('probeModel', date, model, probe.modelDepletion ?? Number.NaN, waterAllowance);
        return probeDepletion(soil.fieldCapacity, probe.moisture / 100, zr, taw) - model;
      });
      const offset = offsets.reduce((sum, value) => sum + value, 0) / offsets.length;
      offsetOfDay.set(ms, offset);
      depletions.forEach((value, cell) => {
        depletions[cell] = Math.min(Math.max(value + offset, 0), taw);
      });
    }
    const mean = depletions.reduce((sum, value) => sum + value, 0) / cells.length;
    note('depletion', date, mean, zone.depletion[index] ?? Number.NaN, waterAllowance);
    note('ks', date, ksSum / cells.length, zone.ks[index] ?? Number.NaN);
    // The watermap serves mm to 0.1: its mean may differ from the series' by rounding, a few hundredths at most.
    note('applied', date, waterSum / cells.length, zone.applied[index] ?? Number.NaN, WATERMAP_ROUNDING);
  }
  out('');
  out(
    `zone ${zone.name} cell by cell (${cells.length} cells, starting at ${startedFrom}), measured days; once watered, depletion and probeModel beyond ${(WATERMAP_ROUNDING * efficiency).toFixed(4)} mm, the watermap's 0.1 mm:`,
  );
  let failed = false;
  for (const [key, entry] of Object.entries(worst)) {
    const limit = key === 'ks' ? COEFFICIENT_TOLERANCE : MM_TOLERANCE;
    const over = entry.difference > limit;
    failed ||= over;
    out(
      `  ${key.padEnd(14)} ${entry.difference.toFixed(key === 'ks' ? 4 : 3).padStart(18)}   ${entry.day.padEnd(12)} ${entry.expected.toFixed(3).padStart(8)}   ${entry.answered.toFixed(3).padStart(8)}${over ? `   ← over ${limit}` : ''}`,
    );
  }
  return { failed, offsets: offsetOfDay };
}

/** The advice of the date by hand: due day, net and gross dose, timer, from the series' forecast days. */
function printAdvice(balance: WaterBalance, seasons: CropSeason[], series: WaterBalanceSeasonArea[]): boolean {
  let failed = false;
  const depth = balance.applicationDepth?.depthAtFullSpeed ?? null;
  out('');
  out(`Advice of ${balance.date} (depth at 100 %: ${depth === null ? '—' : `${depth} mm`})`);
  for (const zone of balance.zones) {
    const season = seasons.find((s) => s.name === zone.name);
    const area = series.find((s) => s.name === zone.name);
    const efficiency = season?.efficiency ?? DEFAULT_EFFICIENCY;
    out(
      `  zone ${zone.name}: depletion ${zone.depletion} mm (RAW ${zone.raw}, TAW ${zone.taw}); next ${zone.nextIrrigation ?? '—'}; net ${zone.netDose ?? '—'} gross ${zone.grossDose ?? '—'} rest ${zone.restDose ?? '—'} mm; timer ${zone.percentTimer ?? '—'} % × ${zone.passes ?? '—'}`,
    );
    if (!area || zone.nextIrrigation === null) continue;
    // Water is due early on the first coming day whose depletion after its rain reaches its RAW.
    const dueIndex = Math.round((dayMs(zone.nextIrrigation) - dayMs(area.firstDay)) / DAY_MS);
    const before = area.depletion[dueIndex - 1] ?? 0;
    const dueDepletion = Math.max(before - (area.effectiveRain[dueIndex] ?? 0), 0);
    const dueRaw = area.raw[dueIndex] ?? 0;
    const byHand = doseOf(dueDepletion, efficiency, depth);
    out(
      `    by hand: on ${zone.nextIrrigation} depletion ${dueDepletion.toFixed(2)} mm ≥ RAW ${dueRaw.toFixed(2)}: net ${byHand.net.toFixed(2)}, gross ${byHand.gross.toFixed(2)}, rest ${byHand.rest.toFixed(2)} mm, timer ${byHand.timer === null ? '—' : byHand.timer.toFixed(1)} %`,
    );
    const dayBefore =
      dueIndex - 1 >= area.measuredDays
        ? Math.max((area.depletion[dueIndex - 2] ?? 0) - (area.effectiveRain[dueIndex - 1] ?? 0), 0)
        : -1;
    if (dueDepletion < dueRaw - MM_TOLERANCE)
      failed = flag(
        `${zone.name}: due on ${zone.nextIrrigation} with ${dueDepletion.toFixed(2)} mm, under RAW ${dueRaw.toFixed(2)}`,
      );
    if (dayBefore >= (area.raw[dueIndex - 1] ?? Infinity))
      failed = flag(`${zone.name}: already due the day before ${zone.nextIrrigation}`);
    if (zone.netDose !== null && Math.abs(zone.netDose - byHand.net) > MM_TOLERANCE)
      failed = flag(`${zone.name}: net dose ${zone.netDose} mm, by hand ${byHand.net.toFixed(2)} mm`);
    if (zone.grossDose !== null && Math.abs(zone.grossDose - byHand.gross) > MM_TOLERANCE)
      failed = flag(`${zone.name}: gross dose ${zone.grossDose} mm, by hand ${byHand.gross.toFixed(2)} mm`);
    if (zone.percentTimer !== null && byHand.timer !== null && Math.abs(zone.percentTimer - byHand.timer) > 0.1)
      failed = flag(`${zone.name}: timer ${zone.percentTimer} %, by hand ${byHand.timer.toFixed(1)} %`);
  }
  for (const sector of balance.sectors) {
    out(
      `  sector ${sector.name}: depletion ${sector.depletion} mm (RAW ${sector.raw}); next ${sector.nextIrrigation ?? '—'}; net ${sector.netDose ?? '—'} gross ${sector.grossDose ?? '—'} mm; timer ${sector.percentTimer ?? '—'} %`,
    );
  }
  return failed;
}

/** The program from the advice: each sector's due date and the depletion expected when the arm gets there. */
function printProgram(program: z.infer<typeof ProgramFromAdviceSchema>, balance: WaterBalance): boolean {
  let failed = false;
  out('');
  out(
    `Program from advice (${program.date}): ${program.reason ?? 'to send'}; revolution ${program.revolutionHours?.toFixed(1) ?? '—'} h, margin ${program.marginHours} h`,
  );
  const tomorrowMs = dayMs(balance.date) + DAY_MS;
  const nowMs = Date.now();
  for (const sector of program.sectors) {
    const advice = balance.sectors.find((s) => s.name === sector.name);
    const efficiency = advice?.netDose && advice.grossDose ? advice.netDose / advice.grossDose : DEFAULT_EFFICIENCY;
    const arrivalMs = nowMs + sector.arrivalHours * 3_600_000;
    // The arrival's calendar day (UTC days: the demo's farm is a few hours from UTC) as an index of expectedDepletion, which starts the day after the date.
    const arrivalIndex = Math.max(0, Math.floor((arrivalMs - tomorrowMs) / DAY_MS));
    const atArrival = advice?.expectedDepletion[arrivalIndex];
    const net = sector.rate * efficiency;
    const wasted = sector.source === 'advised' && atArrival !== undefined && net > atArrival + MM_TOLERANCE;
    out(
      `  ${sector.name.padEnd(12)} ${sector.source.padEnd(9)} due ${(sector.nextIrrigation ?? '—').padEnd(10)} arm there in ${sector.arrivalHours.toFixed(1).padStart(5)} h; depletion then ${atArrival === undefined ? '—' : atArrival.toFixed(2)} mm; rate ${sector.rate} mm gross (${net.toFixed(2)} net)${wasted ? '  ← above the depletion: water wasted' : ''}`,
    );
    if (wasted) failed = true;
  }
  return failed;
}

function flag(message: string): true {
  out(`    ← ${message}`);
  return true;
}

function out(line: string): void {
  process.stdout.write(`${line}\n`);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `check:advice failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(2);
  },
);
