import { useId, useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { currentBrand } from '@/config/brands';
import { downloadFile } from '@/lib/download-file';
import { Button } from '@/ui/button';
import { WarningIcon } from '@/ui/other-icons';
import { CopyButton } from './copy-button';

export type RecoveryCodesDialogProps = {
  codes: readonly string[];
  /** The account's email, written in the downloaded file to tell whose codes they are. */
  email: string;
  /** Done or Escape; the owner unmounts the dialog and, with it, the codes. */
  onClose: () => void;
};

/**
 * The recovery codes, the one time the server answers them (after turning two-step sign-in on, or
 * a new set): to copy or download as a text file. They live in this dialog's props only. A click
 * beside the panel does not close it, so a stray tap cannot lose them.
 */
export function RecoveryCodesDialog({ codes, email, onClose }: RecoveryCodesDialogProps) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const titleId = useId();
  const introId = useId();
  const text = codes.join('\n');

  // As FormDialog: closed while still in the page, so the focus goes back to what opened it.
  useLayoutEffect(() => {
    const element = ref.current;
    element?.showModal();
    return () => element?.close();
  }, []);

  const download = () => {
    const header = t('account.secondFactor.codes.fileHeader', { brand: currentBrand.name, email });
    downloadFile(t('account.secondFactor.codes.fileName'), `${header}\n\n${text}\n`, 'text/plain;charset=utf-8');
  };

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={introId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      className="m-auto w-[calc(100%-2rem)] max-w-md overflow-y-auto rounded-xl border border-line bg-surface p-0 text-ink shadow-xl backdrop:bg-black/55"
    >
      <div className="flex flex-col gap-4 p-5 sm:p-6">
        <h2 id={titleId} className="text-lg font-semibold">
          {t('account.secondFactor.codes.title')}
        </h2>
        <p
          id={introId}
          className="flex items-start gap-2 rounded-lg border-l-4 border-warning bg-warning-soft p-3 text-sm font-medium"
        >
          <WarningIcon className="size-5 shrink-0 text-warning" />
          {t('account.secondFactor.codes.intro')}
        </p>
        <ol
          ref={listRef}
          aria-label={t('account.secondFactor.codes.listLabel')}
          className="grid gap-x-4 sm:grid-cols-2 gap-y-1.5 rounded-md border border-line bg-surface-muted px-4 py-3 font-mono text-sm select-all"
        >
          {codes.map((code) => (
            <li key={code}>{code}</li>
          ))}
        </ol>
        <div className="flex flex-wrap gap-3">
          <CopyButton text={text} label={t('account.secondFactor.codes.copyLabel')} source={listRef} />
          <Button variant="secondary" onClick={download}>
            {t('account.secondFactor.codes.download')}
          </Button>
        </div>
        <div className="mt-2 flex justify-end">
          <Button onClick={onClose}>{t('account.secondFactor.codes.done')}</Button>
        </div>
      </div>
    </dialog>
  );
}
