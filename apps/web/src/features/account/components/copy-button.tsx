import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/ui/button';
import { CheckIcon, CopyIcon } from '@/ui/other-icons';
import { useCopyToClipboard } from '@/ui/use-copy-to-clipboard';

export type CopyButtonProps = {
  text: string;
  /** Names the button for screen readers ("Copy the key"); it shows a short "Copy". */
  label: string;
  /** Selected for the user to copy where the clipboard is refused (a page not served over HTTPS). */
  source: RefObject<HTMLElement | null>;
};

/** Copies a secret or the recovery codes; says so, or selects them when the clipboard is refused. */
export function CopyButton({ text, label, source }: CopyButtonProps) {
  const { t } = useTranslation();
  const { state: copy, copy: copyText } = useCopyToClipboard(source);

  return (
    <>
      <Button
        variant="secondary"
        aria-label={label}
        icon={copy === 'copied' ? <CheckIcon className="size-4" /> : <CopyIcon className="size-4" />}
        onClick={() => void copyText(text)}
      >
        {copy === 'copied' ? t('account.secondFactor.codes.copied') : t('account.secondFactor.codes.copy')}
      </Button>
      <span role="status" className="sr-only">
        {copy === 'copied' ? t('account.secondFactor.codes.copied') : ''}
      </span>
      {copy === 'failed' && (
        <p className="basis-full text-sm font-medium text-warning">{t('account.secondFactor.codes.copyFailed')}</p>
      )}
    </>
  );
}
