import { INCIDENT_KINDS, SPRINKLER_STATUSES } from '@pivot/contracts';
import { sql } from 'drizzle-orm';
import { bigserial, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * What went wrong with a machine, from when it began to when it ended (docs/alerts.md). At most
 * one of each kind is open per machine: the index makes a second instance's attempt to open the
 * same one fail, so each incident is raised once however many instances watch.
 */
export const incidents = pgTable(
  'incidents',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    machineId: text('machine_id').notNull(),
    kind: text('kind', { enum: INCIDENT_KINDS }).notNull(),
    beganAt: timestamp('began_at', { withTimezone: true, precision: 3 }).notNull(),
    /** What the machine reported when it began: an alarm's reason, the pressure. */
    detail: text('detail').notNull().default(''),
    /** Since when the machine has looked well again; null while it does not. */
    recoveringSince: timestamp('recovering_since', { withTimezone: true, precision: 3 }),
    /** How often it looked well and then not again; each time, the wait before it ends doubles. */
    relapses: integer('relapses').notNull().default(0),
    endedAt: timestamp('ended_at', { withTimezone: true, precision: 3 }),
  },
  (table) => [
    uniqueIndex('incidents_open_key')
      .on(table.machineId, table.kind)
      .where(sql`ended_at is null`),
    index('incidents_machine_began_idx').on(table.machineId, table.beganAt),
  ],
);

export type IncidentRow = typeof incidents.$inferSelect;

/**
 * What the incident watch saw of each machine at its last look, for what only a change shows:
 * a stop after moving, and since when the pressure has been low.
 */
export const machineWatch = pgTable('machine_watch', {
  machineId: text('machine_id').primaryKey(),
  status: text('status', { enum: SPRINKLER_STATUSES }),
  lowPressureSince: timestamp('low_pressure_since', { withTimezone: true, precision: 3 }),
});

export type MachineWatchRow = typeof machineWatch.$inferSelect;

/**
 * When a job that runs once across every instance (the hourly water-stress look) last ran: an
 * instance claims a run by moving this time forward, so of instances started at different times
 * one runs it each period and the others skip it.
 */
export const jobRuns = pgTable('job_runs', {
  job: text('job').primaryKey(),
  ranAt: timestamp('ran_at', { withTimezone: true, precision: 3 }).notNull(),
});
