import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database, DatabaseHandle, Queryable } from '../../db/client';
import { type DeviceRow, deviceCredentials } from './devices.table';

type DatabaseKind = DatabaseHandle['kind'];

export async function listDeviceRows(db: Queryable): Promise<DeviceRow[]> {
  return db.select().from(deviceCredentials).orderBy(deviceCredentials.machineId);
}

export async function listMachineIds(db: Queryable): Promise<string[]> {
  const rows = await db.select({ machineId: deviceCredentials.machineId }).from(deviceCredentials);
  return rows.map((row) => row.machineId);
}

export async function findDevice(db: Queryable, machineId: string): Promise<DeviceRow | undefined> {
  const [row] = await db.select().from(deviceCredentials).where(eq(deviceCredentials.machineId, machineId));
  return row;
}

export type StoredSecret = { secretHash: string; secretSealed: string };

/** The new controller, or undefined when one with this ID exists. */
export async function insertDevice(db: Queryable, machineId: string, secret: StoredSecret) {
  const [row] = await db
    .insert(deviceCredentials)
    .values({ machineId, ...secret })
    .onConflictDoNothing()
    .returning();
  return row;
}

export async function replaceSecret(db: Queryable, machineId: string, secret: StoredSecret) {
  const [row] = await db
    .update(deviceCredentials)
    .set({ ...secret, secretCreatedAt: new Date() })
    .where(eq(deviceCredentials.machineId, machineId))
    .returning();
  return row;
}

export async function deleteDevice(db: Queryable, machineId: string) {
  const [row] = await db.delete(deviceCredentials).where(eq(deviceCredentials.machineId, machineId)).returning();
  return row;
}

export async function markConnected(db: Queryable, machineId: string, address: string, at: Date): Promise<void> {
  await db
    .update(deviceCredentials)
    .set({ lastConnectedAt: at, lastAddress: address })
    .where(eq(deviceCredentials.machineId, machineId));
}

export async function markRefused(db: Queryable, machineId: string, at: Date): Promise<void> {
  await db.update(deviceCredentials).set({ lastRefusedAt: at }).where(eq(deviceCredentials.machineId, machineId));
}

/**
 * Seals again the secret a controller logged in with, where the kept one does not open (none
 * sealed yet, or sealed under another key), unless its secret or seal changed meanwhile.
 */
export async function resealSecret(
  db: Queryable,
  machineId: string,
  secret: StoredSecret,
  previouslySealed: string | null,
): Promise<void> {
  await db
    .update(deviceCredentials)
    .set({ secretSealed: secret.secretSealed })
    .where(
      and(
        eq(deviceCredentials.machineId, machineId),
        eq(deviceCredentials.secretHash, secret.secretHash),
        previouslySealed === null
          ? isNull(deviceCredentials.secretSealed)
          : eq(deviceCredentials.secretSealed, previouslySealed),
      ),
    );
}

/** Any number unique to this application: the instances and the command take turns restoring accounts. */
const ACCOUNTS_LOCK_KEY = 7_311_020_39;

/**
 * Runs `work` while no other process restores the broker's accounts, or answers 'busy'. On
 * PostgreSQL the lock is a transaction's advisory lock, held while `work` runs on other
 * connections; PGlite is one process's, whose runs its caller keeps apart.
 */
export async function exclusivelyForAccounts<T>(
  db: Database,
  kind: DatabaseKind,
  work: () => Promise<T>,
): Promise<T | 'busy'> {
  if (kind === 'pglite') return work();
  return db.transaction(async (tx) => {
    const result = await tx.execute(sql`select pg_try_advisory_xact_lock(${ACCOUNTS_LOCK_KEY}) as locked`);
    // node-postgres answers with the rows under `rows`.
    const [row] = (result as { rows: { locked: boolean }[] }).rows;
    return row?.locked === true ? work() : 'busy';
  });
}
