import { and, eq, inArray, lt, max } from 'drizzle-orm';
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

/**
 * Settles again a command whose machine spoke after the server stopped waiting: one still pending
 * (its server restarted), expired (the answer came late) or unknown. `decide` gives the outcome
 * from the command as it was. Returns the command as it was, or undefined when nothing changed.
 */
export async function reviseCommand(
  db: Queryable,
  { id, machineId }: { id: string; machineId: string },
  decide: (command: MachineCommandRow) => { outcome: CommandRecordOutcome; detail: string },
): Promise<MachineCommandRow | undefined> {
  return db.transaction(async (tx) => {
    const [command] = await tx
      .select()
      .from(machineCommands)
      .where(
        and(
          eq(machineCommands.id, id),
          eq(machineCommands.machineId, machineId),
          inArray(machineCommands.outcome, ['pending', 'expired', 'unknown']),
        ),
      )
      .for('update');
    if (!command) return undefined;
    await tx
      .update(machineCommands)
      .set({ ...decide(command), settledAt: new Date() })
      .where(eq(machineCommands.id, id));
    return command;
  });
}

/** When a person last commanded a motion of each of the machines, whether or not it was carried out. */
export async function lastMotionSentAt(db: Queryable, machineIds: string[]): Promise<Map<string, number>> {
  if (machineIds.length === 0) return new Map();
  const rows = await db
    .select({ machineId: machineCommands.machineId, sentAt: max(machineCommands.sentAt) })
    .from(machineCommands)
    .where(and(inArray(machineCommands.machineId, machineIds), eq(machineCommands.type, 'motion')))
    .groupBy(machineCommands.machineId);
  return new Map(rows.filter((row) => row.sentAt !== null).map((row) => [row.machineId, row.sentAt!.getTime()]));
}
