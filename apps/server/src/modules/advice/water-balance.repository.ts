import type { ProgramData } from '@pivot/contracts';
import { eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { machineState } from '../telemetry';

/** The program the machine reports as loaded (its active program's sectors); null when none. */
export async function activeProgramOf(db: Queryable, machineId: string): Promise<ProgramData | null> {
  const [row] = await db
    .select({ programData: machineState.programData })
    .from(machineState)
    .where(eq(machineState.machineId, machineId));
  return row?.programData ?? null;
}
