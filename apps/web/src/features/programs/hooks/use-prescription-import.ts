import type { PrescriptionPreview, PrescriptionRequest } from '@pivot/contracts';
import { useState } from 'react';
import { usePreviewPrescription } from '../api/preview-prescription';
import { type PrescriptionFile, readPrescriptionFile } from '../lib/prescription-file';

/**
 * What the farmer chose of the prescription's reading; what is not chosen the server guesses (the
 * column named for a rate, its unit from its name) and guesses the same way each time.
 */
export type PrescriptionChoice = Pick<PrescriptionRequest, 'column' | 'unit' | 'alikeMm'>;

export type ShownPrescription = { file: PrescriptionFile; choice: PrescriptionChoice; preview: PrescriptionPreview };

/**
 * A prescription file read and made into a program's sectors by the server, and made again with
 * each other choice of its column, unit or likeness. An answer that is refused (shown as a toast by
 * the API client) changes nothing: the first opens nothing, a later one leaves the preview and
 * its choices as they were.
 */
export function usePrescriptionImport(sprinklerId: number) {
  const previewing = usePreviewPrescription();
  const [reading, setReading] = useState(false);
  const [shown, setShown] = useState<ShownPrescription | null>(null);

  /** Reads and sends a chosen file; throws what reading it throws (a file too large). */
  const open = async (chosen: File) => {
    setReading(true);
    try {
      const file = await readPrescriptionFile(chosen);
      const preview = await previewing.run(sprinklerId, file);
      if (preview) setShown({ file, choice: {}, preview });
    } finally {
      setReading(false);
    }
  };

  const change = async (changed: PrescriptionChoice) => {
    if (!shown) return;
    const { file } = shown;
    const choice = { ...shown.choice, ...changed };
    const preview = await previewing.run(sprinklerId, { ...file, ...choice });
    // Closed meanwhile (or another file opened): the answer is of nothing shown any more.
    if (preview) setShown((current) => (current?.file === file ? { file, choice, preview } : current));
  };

  return {
    /** The file is being read and sent, before anything is shown. */
    reading,
    shown,
    /** A change's answer is awaited: the preview shown is of the previous choice. */
    updating: shown !== null && previewing.isPending,
    open,
    change,
    close: () => setShown(null),
  };
}
