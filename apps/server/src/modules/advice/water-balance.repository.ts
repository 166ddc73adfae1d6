import type { ProgramData } from '@pivot/contracts';
import { eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { machineState } from '../telemetry';

/**
 * The program the machine reports as loaded (its active program's sectors), with what tells one
 * upload from another (its name and when the machine finished taking it); null when none.
 */
export async function activeProgramOf(
  db: Queryable,
  machineId: string,
): Promise<{ programData: ProgramData; version: string } | null> {
  const [row] = await db
    .select({
      programData: machineState.programData,
      name: machineState.programName,
      uploadedAt: machineState.programUploadedAt,
    })
    .from(machineState)
    .where(eq(machineState.machineId, machineId));
  if (!row?.programData) return null;
  return { programData: row.programData, version: `${row.uploadedAt?.getTime() ?? ''}|${row.name ?? ''}` };
}
