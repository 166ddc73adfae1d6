import { and, eq, lt } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { type CommandRecordOutcome, type MachineCommandRow, machineCommands } from './commands.table';

export async function insertCommand(db: Queryable, command: typeof machineCommands.$inferInsert): Promise<void> {
  await db.insert(machineCommands).values(command);
}

export async function settleCommand(
  db: Queryable,
  id: string,
  outcome: CommandRecordOutcome,
  detail: string,
): Promise<void> {
  await db
    .update(machineCommands)
    .set({ outcome, detail, settledAt: new Date() })
    .where(and(eq(machineCommands.id, id), eq(machineCommands.outcome, 'pending')));
}

/** Settles as unknown the commands still pending from before `sentBefore`, and returns them. */
export async function settleAbandoned(db: Queryable, sentBefore: Date, detail: string): Promise<MachineCommandRow[]> {
  return db
    .update(machineCommands)
    .set({ outcome: 'unknown', detail, settledAt: new Date() })
    .where(and(eq(machineCommands.outcome, 'pending'), lt(machineCommands.sentAt, sentBefore)))
    .returning();
}
