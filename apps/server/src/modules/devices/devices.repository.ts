import { and, eq, isNull } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { type DeviceRow, deviceCredentials } from './devices.table';

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
