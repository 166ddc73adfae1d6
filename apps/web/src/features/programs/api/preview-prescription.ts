import { type PrescriptionPreview, type PrescriptionRequest, programsEndpoints } from '@pivot/contracts';
import { callEndpoint } from '@/lib/api-client';
import { useAction } from '@/lib/use-action';

/**
 * Makes a prescription file into a program's sectors for a machine, to be looked at before it is
 * saved (with the create call): the server stores nothing. A file it cannot use (unreadable, in an
 * unknown coordinate system, with a rate out of range, of another field) is shown as a toast in
 * the user's language and gives false.
 */
export async function previewPrescription(
  sprinklerId: number,
  request: PrescriptionRequest,
): Promise<PrescriptionPreview | false> {
  return callEndpoint(programsEndpoints.prescription, { params: { id: sprinklerId }, body: request });
}

export function usePreviewPrescription() {
  return useAction(previewPrescription);
}
