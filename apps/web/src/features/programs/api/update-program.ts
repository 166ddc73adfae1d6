import { type ProgramBody, ProgramBodySchema, type SprinklerDetail, programsEndpoints } from '@pivot/contracts';
import type { z } from 'zod';
import { callEndpoint } from '@/lib/api-client';
import { storeSprinklerDetail } from '@/lib/sprinkler-detail-cache';
import { useAction } from '@/lib/use-action';

export const updateProgramInputSchema = ProgramBodySchema;
export type UpdateProgramInput = z.input<typeof updateProgramInputSchema>;

/**
 * Replaces a stored program's name and sectors (renaming, editing a sector, importing a map
 * file, saving the machine's version). Answers the machine's detail, stored for every screen.
 */
export async function updateProgram(
  sprinklerId: number,
  programId: number,
  input: UpdateProgramInput,
): Promise<SprinklerDetail | false> {
  const body: ProgramBody = updateProgramInputSchema.parse(input);
  const detail = await callEndpoint(programsEndpoints.update, { params: { id: sprinklerId, programId }, body });
  if (detail) storeSprinklerDetail(detail);
  return detail;
}

export function useUpdateProgram() {
  return useAction(updateProgram);
}
