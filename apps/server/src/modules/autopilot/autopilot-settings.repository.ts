import type { AutopilotMode, AutopilotRules } from '@pivot/contracts';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { type AutopilotSettingsRow, autopilotSettings } from './autopilot.table';

/** A machine's stored autopilot, if it was ever set. */
export async function findAutopilotSettings(
  db: Queryable,
  sprinklerId: number,
): Promise<AutopilotSettingsRow | undefined> {
  const [row] = await db.select().from(autopilotSettings).where(eq(autopilotSettings.sprinklerId, sprinklerId));
  return row;
}

/** The lock space of a machine's autopilot settings (beside the programs' 7311 and the seasons' 7312). */
const AUTOPILOT_LOCK_SPACE = 7313;

/**
 * The same, the machine's settings locked until the transaction ends: two saves (or a save and a
 * takeover) of one machine compare against what the other wrote, so each change is logged once.
 * The lock is the machine's, not its row's: a machine never set has no row to lock yet.
 */
export async function findAutopilotSettingsForUpdate(
  db: Queryable,
  sprinklerId: number,
): Promise<AutopilotSettingsRow | undefined> {
  await db.execute(sql`select pg_advisory_xact_lock(${AUTOPILOT_LOCK_SPACE}, ${sprinklerId})`);
  const [row] = await db
    .select()
    .from(autopilotSettings)
    .where(eq(autopilotSettings.sprinklerId, sprinklerId))
    .for('update');
  return row;
}

/** Writes a machine's mode and rules (its memory is kept, or starts empty). */
export async function upsertAutopilotSettings(
  db: Queryable,
  values: { sprinklerId: number; mode: AutopilotMode; rules: AutopilotRules; updatedBy: number | null },
): Promise<AutopilotSettingsRow> {
  const updatedAt = new Date();
  const [row] = await db
    .insert(autopilotSettings)
    .values({ ...values, updatedAt })
    .onConflictDoUpdate({
      target: autopilotSettings.sprinklerId,
      set: { mode: values.mode, rules: values.rules, updatedBy: values.updatedBy, updatedAt },
    })
    .returning();
  return row!;
}

/** The settings of every machine whose autopilot is not off, by machine id. */
export function listActiveAutopilots(db: Queryable): Promise<AutopilotSettingsRow[]> {
  return db
    .select()
    .from(autopilotSettings)
    .where(ne(autopilotSettings.mode, 'off'))
    .orderBy(autopilotSettings.sprinklerId);
}

/**
 * The starts the watcher put off to a moment after `now` (its memory's `plannedStartAt`) among
 * the machines in auto, by machine id, in one statement.
 */
export async function findPlannedStarts(
  db: Queryable,
  sprinklerIds: number[],
  now: number,
): Promise<Map<number, number>> {
  if (sprinklerIds.length === 0) return new Map();
  const plannedAt = sql<number>`(${autopilotSettings.memory} ->> 'plannedStartAt')::float8`;
  const rows = await db
    .select({ sprinklerId: autopilotSettings.sprinklerId, at: plannedAt })
    .from(autopilotSettings)
    .where(
      and(
        eq(autopilotSettings.mode, 'auto'),
        sql`${autopilotSettings.sprinklerId} = any(${sql.param(sprinklerIds)}::int[])`,
        sql`${plannedAt} > ${now}`,
      ),
    );
  return new Map(rows.map((row) => [row.sprinklerId, Number(row.at)]));
}

/**
 * What the autopilot's watcher kept of a machine ({} when nothing, or when the machine has no
 * settings row). Its shape is the watcher's own.
 */
export async function readMemory(db: Queryable, sprinklerId: number): Promise<Record<string, unknown>> {
  const [row] = await db
    .select({ memory: autopilotSettings.memory })
    .from(autopilotSettings)
    .where(eq(autopilotSettings.sprinklerId, sprinklerId));
  return row?.memory ?? {};
}

/**
 * The start of the pass the memory holds (`run.startedAt`), or null without one: what a writer
 * read, so that it does not write over a pass another started since (a tap during a look).
 */
export type RunMark = number | null;

const storedRun = sql`(${autopilotSettings.memory} #>> '{run,startedAt}')::numeric`;
const sameRun = (runWas: RunMark) => sql`${storedRun} is not distinct from ${runWas}::numeric`;

/**
 * Replaces what the watcher keeps of a machine, unless, with `runWas`, the pass it holds is no
 * longer the one the writer read. Only a machine with settings has a memory (the watcher looks
 * only at machines whose mode is not off). False when nothing was written.
 */
export async function saveMemory(
  db: Queryable,
  sprinklerId: number,
  memory: unknown,
  runWas?: RunMark,
): Promise<boolean> {
  const machine = eq(autopilotSettings.sprinklerId, sprinklerId);
  const rows = await db
    .update(autopilotSettings)
    .set({ memory: memory as Record<string, unknown> })
    .where(runWas === undefined ? machine : and(machine, sameRun(runWas)))
    .returning({ sprinklerId: autopilotSettings.sprinklerId });
  return rows.length > 0;
}

/**
 * Claims a start of the machine at `now` in the watcher's memory (`startingSince`) unless a claim
 * made at or after `staleBefore` holds it, or a pass other than `runWas` was started since the
 * caller read the memory: one statement, so of two instances (or a tap and a look) one claims it.
 * Whether this call claimed it.
 */
export async function claimStart(
  db: Queryable,
  sprinklerId: number,
  now: number,
  staleBefore: number,
  runWas: RunMark,
): Promise<boolean> {
  const claimed = await db
    .update(autopilotSettings)
    .set({ memory: sql`jsonb_set(${autopilotSettings.memory}, '{startingSince}', to_jsonb(${now}::bigint))` })
    .where(
      and(
        eq(autopilotSettings.sprinklerId, sprinklerId),
        sql`coalesce((${autopilotSettings.memory} ->> 'startingSince')::bigint, 0) < ${staleBefore}::bigint`,
        sameRun(runWas),
      ),
    )
    .returning({ sprinklerId: autopilotSettings.sprinklerId });
  return claimed.length > 0;
}
