import { MAX_PRESCRIPTION_FILE_BYTES } from '@pivot/contracts';

/** The endings the server reads a prescription by (see the contract's request): whatever it unpacks comes as a .zip. */
export const PRESCRIPTION_FILE_ACCEPT = '.zip,.geojson,.json';

/** The longest program name the create call takes. */
const PROGRAM_NAME_MAX = 100;

/** A prescription file as it is sent: its name (whose ending tells its format) and its bytes, base64. */
export type PrescriptionFile = { fileName: string; content: string };

export class PrescriptionFileTooLarge extends Error {
  constructor(readonly maxMegabytes: number) {
    super('prescription file too large');
  }
}

/**
 * Reads a chosen file as base64. One larger than the server takes is refused here, before it is
 * read and sent over a farm's connection only to be turned away.
 */
export async function readPrescriptionFile(file: File): Promise<PrescriptionFile> {
  if (file.size > MAX_PRESCRIPTION_FILE_BYTES) {
    throw new PrescriptionFileTooLarge(MAX_PRESCRIPTION_FILE_BYTES / (1024 * 1024));
  }
  const dataUrl = await new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('file not read'));
    // The browser's own encoder: a few megabytes in one call, not a loop over the bytes.
    reader.readAsDataURL(file);
  });
  return { fileName: file.name, content: dataUrl.slice(dataUrl.indexOf(',') + 1) };
}

/** The program's name a file suggests: its name without its ending ("Pole 3 – maj.zip" → "Pole 3 – maj"). */
export function programNameOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  const name = (dot > 0 ? fileName.slice(0, dot) : fileName).trim();
  return name.slice(0, PROGRAM_NAME_MAX).trim();
}
