import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { TimeSlicer } from '../../time/time-slicer';
import type { DayOfYear } from './day-of-year';
import type { CellWater } from './round-grid';
import { waterCellYears, waterProgress } from './watermap.table';

/**
 * How far each of the machines has been counted, in one query (the IDs as one array parameter):
 * a machine never counted is not in the map, and starts from its first report.
 */
export async function waterProgressOfMachines(db: Queryable, machineIds: string[]): Promise<Map<string, Date>> {
  if (machineIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(waterProgress)
    .where(sql`${waterProgress.machineId} = any(${sql.param(machineIds)}::text[])`);
  return new Map(rows.map((row) => [row.machineId, row.processedUntil]));
}

/** Makes the progress rows of machines never counted, at the start of time; one statement. */
export async function addWaterProgress(db: Queryable, machineIds: string[]): Promise<void> {
  if (machineIds.length === 0) return;
  // Sorted: two instances making the same rows take their keys in the same order.
  await db.execute(sql`
    insert into ${waterProgress} (machine_id, processed_until)
    select id, 'epoch'::timestamptz from unnest(${sql.param([...machineIds].sort())}::text[]) as machine(id)
    on conflict (machine_id) do nothing`);
}

/**
 * Takes the accounting of the machines for this transaction, in one statement, and tells how
 * far each had got: a machine another server instance holds (or without a row) is not in the map.
 */
export async function claimWaterProgress(db: Queryable, machineIds: string[]): Promise<Map<string, Date>> {
  if (machineIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(waterProgress)
    .where(sql`${waterProgress.machineId} = any(${sql.param(machineIds)}::text[])`)
    .for('update', { skipLocked: true });
  return new Map(rows.map((row) => [row.machineId, row.processedUntil]));
}

/** Where a machine's progress moves: from where it was read to where its round ends. */
export type ProgressMove = { machineId: string; from: Date; to: Date };

/**
 * Moves the progress of each machine from `from` to `to`, in one statement: the machines whose
 * progress moved; one another instance had moved since `from` was read is left (its count
 * stands). One holding a machine's row is waited for, then its result decides. The machines'
 * rows are there already (addWaterProgress).
 */
export async function advanceWaterProgress(db: Queryable, moves: ProgressMove[]): Promise<Set<string>> {
  if (moves.length === 0) return new Set();
  const result = await db.execute(sql`
    update ${waterProgress} as progress set processed_until = move.until
    from unnest(
      ${sql.param(moves.map((move) => move.machineId))}::text[],
      ${sql.param(moves.map((move) => move.from.toISOString()))}::timestamptz[],
      ${sql.param(moves.map((move) => move.to.toISOString()))}::timestamptz[]
    ) as move(id, after, until)
    where progress.machine_id = move.id and progress.processed_until = move.after
    returning progress.machine_id as "machineId"`);
  return new Set((result as unknown as { rows: { machineId: string }[] }).rows.map((row) => row.machineId));
}

/** A day's water of one machine, as one round of the accounting counted it. */
export type MachineWater = { machineId: string; date: DayOfYear; cells: CellWater[] };

/** addWaterOfMachines for one machine. */
export function addWater(db: Queryable, machineId: string, date: DayOfYear, cells: CellWater[]): Promise<void> {
  return addWaterOfMachines(db, [{ machineId, date, cells }]);
}

/**
 * Adds each machine's water of a day to its cells, every machine in one statement, creating rows
 * as needed: in the usual case (water counted today) it adds to the row's last day, or appends
 * the day; a day before the row's last (a round of an earlier day counted late) is merged in
 * its place. Each column travels as one array parameter that unnest turns back into rows: a
 * multi-row VALUES list has a parameter per value for drizzle and the driver to handle one by
 * one, and took twice as long. On PGlite the statement runs on the event loop's thread: callers
 * keep to a few dozen cells.
 */
export async function addWaterOfMachines(db: Queryable, waters: MachineWater[]): Promise<void> {
  // A column each, filled in one pass: with an object per cell on the way (machine and cell spread
  // into one), this function was 4 % of the server's busy time at 1,000 machines (its profile).
  const columns = { machineId: [] as string[], year: [] as number[], day: [] as number[] };
  const cell = { x: [] as number[], y: [] as number[], mm: [] as number[] };
  for (const { machineId, date, cells } of waters) {
    for (const { x, y, mm } of cells) {
      columns.machineId.push(machineId);
      columns.year.push(date.year);
      columns.day.push(date.day);
      cell.x.push(x);
      cell.y.push(y);
      cell.mm.push(mm);
    }
  }
  if (cell.x.length === 0) return;
  const { days, mm } = waterCellYears;
  const count = sql`cardinality(${days})`;
  const storedLast = sql`${days}[${count}]`;
  const day = sql`excluded.days[1]`;
  // Added in double precision, then stored as a 4-byte float.
  const addedToLast = sql`${mm}[1 : ${count} - 1] || (${mm}[${count}]::float8 + excluded.mm[1])::real`;
  const merged = sql`unnest(${days} || excluded.days, ${mm} || excluded.mm) as water(day, mm) group by water.day order by water.day`;
  // Each machine's next water revision: writes of one machine are serialised by its progress row.
  await db.execute(sql`
    with cell as (
      select * from unnest(
        ${sql.param(columns.machineId)}::text[],
        ${sql.param(columns.year)}::int[],
        ${sql.param(columns.day)}::int[],
        ${sql.param(cell.x)}::int[],
        ${sql.param(cell.y)}::int[],
        ${sql.param(cell.mm)}::float8[]
      ) as cell(machine_id, year, day, x, y, mm)
    ), machine as (
      select id, (select coalesce(max(${waterCellYears.revision}), 0) + 1 from ${waterCellYears} where ${waterCellYears.machineId} = id) as revision
      from (select distinct machine_id from cell) as machine(id)
    )
    insert into ${waterCellYears} (machine_id, year, x, y, days, mm, revision)
    select cell.machine_id, cell.year, cell.x, cell.y, array[cell.day]::smallint[], array[cell.mm]::real[], machine.revision
    from cell join machine on machine.id = cell.machine_id
    on conflict (machine_id, year, x, y) do update set
      revision = excluded.revision,
      days = case
        when ${storedLast} < ${day} then ${days} || ${day}
        when ${storedLast} = ${day} then ${days}
        else array(select water.day from ${merged}) end,
      mm = case
        when ${storedLast} < ${day} then ${mm} || excluded.mm[1]
        when ${storedLast} = ${day} then ${addedToLast}
        else array(select sum(water.mm::float8)::real from ${merged}) end`);
}

/**
 * A season's rows of a large machine are tens of thousands of numbers to read and sum: done a few
 * milliseconds at a time, so that a watermap or an export does not hold the event loop.
 */
const SLICE_MS = 5;

/** A row as read by `storedRows`: its water days and their mm. */
export type StoredRow = { year: number; x: number; y: number; days: number[]; mm: number[] };

/**
 * Which of a machine's rows to read: those of some years, or those changed after a water revision
 * (of any year: by the revision's index alone, since with the years in the query the planner took
 * the primary key and read every row of the years).
 */
export type RowsWanted = { years: [first: number, last: number] } | { changedAfter: number };

/**
 * The machine's rows wanted, read as one text (as JSON or a row per cell, a season's numbers took
 * PGlite longer), and the machine's highest water revision, in one statement: a write between two
 * would go unseen. Each mm is the 4-byte float stored (PostgreSQL writes it in the fewest digits
 * that read back as that float), so sums here are those of the query's.
 */
export async function storedRows(
  db: Queryable,
  machineId: string,
  wanted: RowsWanted,
): Promise<{ revision: number; rows: StoredRow[] }> {
  const { days, mm, year, x, y, revision } = waterCellYears;
  const ofMachine = sql`${waterCellYears.machineId} = ${machineId}`;
  const answer = await db.execute(sql`
    select
      (select max(${revision}) from ${waterCellYears} where ${ofMachine}) as revision,
      string_agg(${year} || ',' || ${x} || ',' || ${y} || ',' || array_to_string(${days}, ' ') || ',' || array_to_string(${mm}, ' '), ';') as text
    from ${waterCellYears} where ${ofMachine} and ${
      'years' in wanted
        ? sql`${year} between ${wanted.years[0]}::int and ${wanted.years[1]}::int`
        : sql`${revision} > ${wanted.changedAfter}::bigint`
    }`);
  const [result] = (answer as unknown as { rows: { revision: string | number | null; text: string | null }[] }).rows;
  const rows: StoredRow[] = [];
  const slicer = new TimeSlicer(SLICE_MS);
  for (const row of result?.text ? result.text.split(';') : []) {
    const [cellYear, cellX, cellY, cellDays, cellMm] = row.split(',');
    rows.push({
      year: Number(cellYear),
      x: Number(cellX),
      y: Number(cellY),
      days: cellDays!.split(' ').map(Number),
      mm: cellMm!.split(' ').map((value) => Math.fround(Number(value))),
    });
    if (slicer.due()) await slicer.pause();
  }
  return { revision: Number(result?.revision ?? 0), rows };
}

/**
 * A row's running sums, the water from 1 January through each day from `first` to `last`: the
 * shape the readers of a year's water kept when the table stored running sums.
 */
function runningSums(row: StoredRow, first: number, last: number): number[] {
  const sums: number[] = [];
  let total = 0;
  let index = 0;
  for (let day = first; day <= last; day += 1) {
    for (; index < row.days.length && row.days[index]! <= day; index += 1) total += row.mm[index]!;
    sums.push(total);
  }
  return sums;
}

/** The last day of the year a row's cell got water. */
function lastDayOf(row: StoredRow): number {
  return row.days.at(-1)!;
}

/** A cell's running sums of one year as read: the element of day d is `sums[d - offset]`; later days hold the last. */
export type RunningSlice = { year: number; x: number; y: number; offset: number; sums: number[] };

/**
 * The rows of a machine's years `firstYear` to `lastYear` changed after water revision
 * `sinceRevision` (all of them for -1), each as its running sums from day `lower` of year
 * `lowerYear` (from 1 January in the other years) to its last day with water; a row whose last
 * water is before `lower` comes back with that day's sum alone, so a total through any day is
 * readable. One statement, so `revision`, the machine's highest, is that of the rows read.
 */
export async function runningSumsChanged(
  db: Queryable,
  machineId: string,
  options: { firstYear: number; lastYear: number; lowerYear: number; lower: number; sinceRevision: number },
): Promise<{ revision: number; rows: RunningSlice[] }> {
  const { revision: highest, rows } = await storedRows(
    db,
    machineId,
    options.sinceRevision < 0
      ? { years: [options.firstYear, options.lastYear] }
      : { changedAfter: options.sinceRevision },
  );
  return {
    revision: highest,
    rows: rows.flatMap((row) => {
      if (row.year < options.firstYear || row.year > options.lastYear) return [];
      const lower = row.year === options.lowerYear ? Math.max(1, options.lower) : 1;
      const offset = Math.min(lower, lastDayOf(row));
      return { year: row.year, x: row.x, y: row.y, offset, sums: runningSums(row, offset, lastDayOf(row)) };
    }),
  };
}
