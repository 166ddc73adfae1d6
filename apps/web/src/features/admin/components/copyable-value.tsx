import { type Ref, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/ui/button';
import { CheckIcon, CopyIcon } from '@/ui/other-icons';
import { useCopyToClipboard } from '@/ui/use-copy-to-clipboard';

export type CopyableValueProps = {
  label: string;
  value: string;
  /** Names the copy button for screen readers ("Copy the secret"); it shows a short "Copy". */
  copyLabel: string;
  copyRef?: Ref<HTMLButtonElement>;
};

/**
 * A value to be typed elsewhere (a controller's credentials): monospace, wrapped rather than cut,
 * selected whole with one click, and a button that copies it. Where the clipboard is refused
 * (a page not served over HTTPS), the value is selected for the user to copy.
 */
export function CopyableValue({ label, value, copyLabel, copyRef }: CopyableValueProps) {
  const { t } = useTranslation();
  const labelId = useId();
  const valueRef = useRef<HTMLElement>(null);
  const { state: copy, copy: copyValue } = useCopyToClipboard(valueRef);

  return (
    <div className="flex flex-col gap-1.5">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <span id={labelId} className="text-sm font-medium">
          {label}
        </span>
        <span role="status" className="text-sm font-medium text-success">
          {copy === 'copied' && (
            <span className="inline-flex items-center gap-1">
              <CheckIcon className="size-4" />
              {t('admin.devices.secret.copied')}
            </span>
          )}
        </span>
      </div>
      <div className="flex items-start gap-2">
        <code
          ref={valueRef}
          aria-labelledby={labelId}
          className="min-h-9 min-w-0 flex-1 rounded-md border border-line bg-surface-muted px-3 py-1.5 font-mono text-sm leading-6 break-all select-all"
        >
          {value}
        </code>
        <Button
          ref={copyRef}
          variant="secondary"
          aria-label={copyLabel}
          icon={copy === 'copied' ? <CheckIcon className="size-4" /> : <CopyIcon className="size-4" />}
          onClick={() => void copyValue(value)}
          className="shrink-0"
        >
          {t('admin.devices.secret.copy')}
        </Button>
      </div>
      {copy === 'failed' && <p className="text-sm font-medium text-warning">{t('admin.devices.secret.copyFailed')}</p>}
    </div>
  );
}
