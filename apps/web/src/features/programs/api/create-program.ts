import { type ProgramBody, ProgramBodySchema, type SprinklerDetail, programsEndpoints } from '@pivot/contracts';
import type { z } from 'zod';
import { callEndpoint } from '@/lib/api-client';
import { storeSprinklerDetail } from '@/lib/sprinkler-detail-cache';
import { useAction } from '@/lib/use-action';

export const createProgramInputSchema = ProgramBodySchema;
export type CreateProgramInput = z.input<typeof createProgramInputSchema>;

/**
 * Stores a new program for a machine; answers the machine's detail, which every screen showing
 * the machine gets at once. A 409 (too many programs, or the name is taken) or a 404 (no such
 * machine) is shown as a toast and gives false.
 */
export async function createProgram(sprinklerId: number, input: CreateProgramInput): Promise<SprinklerDetail | false> {
  const body: ProgramBody = createProgramInputSchema.parse(input);
  const detail = await callEndpoint(programsEndpoints.create, { params: { id: sprinklerId }, body });
  if (detail) storeSprinklerDetail(detail);
  return detail;
}

export function useCreateProgram() {
  return useAction(createProgram);
}
