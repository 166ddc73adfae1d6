import { useId, useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/ui/button';
import { WarningIcon } from '@/ui/other-icons';
import { CopyableValue } from './copyable-value';

export type DeviceSecretDialogProps = {
  machineId: string;
  secret: string;
  /** A first secret (then the machine is added next), or a new one for a known controller. */
  reason: 'registered' | 'replaced';
  /** Done or Escape; the owner unmounts the dialog and, with it, the secret. */
  onClose: () => void;
};

/**
 * Shows a controller's MQTT credentials the one time the server answers its secret. The secret
 * lives in this dialog's props only: closing it forgets the secret for good. A click beside
 * the panel does not close it, so a stray tap cannot lose the secret.
 */
export function DeviceSecretDialog({ machineId, secret, reason, onClose }: DeviceSecretDialogProps) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const copySecretRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const instructionsId = useId();

  // As FormDialog: closed while still in the page, so the focus goes back to what opened it.
  useLayoutEffect(() => {
    const element = ref.current;
    element?.showModal();
    copySecretRef.current?.focus();
    return () => element?.close();
  }, []);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={instructionsId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      className="m-auto w-[calc(100%-2rem)] max-w-lg overflow-y-auto rounded-xl border border-line bg-surface p-0 text-ink shadow-xl backdrop:bg-black/55"
    >
      <div className="flex flex-col gap-4 p-5 sm:p-6">
        <h2 id={titleId} className="text-lg font-semibold [overflow-wrap:anywhere]">
          {reason === 'registered'
            ? t('admin.devices.secret.registeredTitle', { id: machineId })
            : t('admin.devices.secret.replacedTitle', { id: machineId })}
        </h2>
        <p
          id={instructionsId}
          className="flex items-start gap-2 rounded-lg border-l-4 border-warning bg-warning-soft p-3 text-sm font-medium"
        >
          <WarningIcon className="size-5 shrink-0 text-warning" />
          {t('admin.devices.secret.instructions')}
        </p>
        <CopyableValue
          label={t('admin.devices.secret.username')}
          value={machineId}
          copyLabel={t('admin.devices.secret.copyUsername')}
        />
        <CopyableValue
          label={t('admin.devices.secret.secret')}
          value={secret}
          copyLabel={t('admin.devices.secret.copySecret')}
          copyRef={copySecretRef}
        />
        <p className="text-sm text-ink-muted">
          {reason === 'registered' ? t('admin.devices.secret.nextStep') : t('admin.devices.secret.stillDisconnected')}
        </p>
        <div className="mt-2 flex justify-end">
          <Button onClick={onClose}>{t('admin.devices.secret.done')}</Button>
        </div>
      </div>
    </dialog>
  );
}
