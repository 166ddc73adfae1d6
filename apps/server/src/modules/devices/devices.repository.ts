import { eq } from 'drizzle-orm';
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

/** The new controller, or undefined when one with this ID exists. */
export async function insertDevice(db: Queryable, machineId: string, secretHash: string) {
  const [row] = await db.insert(deviceCredentials).values({ machineId, secretHash }).onConflictDoNothing().returning();
  return row;
}

export async function replaceSecretHash(db: Queryable, machineId: string, secretHash: string) {
  const [row] = await db
    .update(deviceCredentials)
    .set({ secretHash, secretCreatedAt: new Date() })
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
