import { type SecondFactorSetup, TotpCodeSchema } from '@pivot/contracts';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '@/ui/form-dialog';
import { OneTimeCodeField } from '@/ui/form/one-time-code-field';
import { useConfirmSecondFactor } from '../api/change-second-factor';
import { CopyButton } from './copy-button';
import { QrCode } from './qr-code';

/** A base32 secret in groups of four, as it is easiest to type: `JBSW Y3DP EHPK 3PXP`. */
export function groupedSecret(secret: string): string {
  return secret.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ');
}

export type SecondFactorSetupDialogProps = {
  setup: SecondFactorSetup;
  /** Turned on: the recovery codes, shown once next. */
  onConfirmed: (recoveryCodes: string[]) => void;
  onClose: () => void;
};

/**
 * The second part of turning two-step sign-in on, after the password: the new secret as a QR code
 * and as text to type in, and the first code from the app, which puts the secret in force.
 * Fetched with its QR code library only when it opens (second-factor-card.tsx).
 */
export function SecondFactorSetupDialog({ setup, onConfirmed, onClose }: SecondFactorSetupDialogProps) {
  const { t } = useTranslation();
  const confirm = useConfirmSecondFactor();
  const secretRef = useRef<HTMLElement>(null);
  const [code, setCode] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [wrong, setWrong] = useState(false);

  const formatError =
    code.trim() === ''
      ? t('form.required')
      : TotpCodeSchema.safeParse(code).success
        ? undefined
        : t('account.secondFactor.setup.invalidCode');
  const error = wrong ? t('errorCodes.second_factor_incorrect.message') : submitted ? formatError : undefined;

  const submit = async () => {
    setSubmitted(true);
    if (formatError) return;
    const result = await confirm.run(code);
    if (result.ok) onConfirmed(result.codes.recovery_codes);
    else if (result.wrongCode) setWrong(true);
  };

  return (
    <FormDialog
      title={t('account.secondFactor.setup.title')}
      submitLabel={t('account.secondFactor.setup.submit')}
      pendingLabel={t('account.secondFactor.setup.submitting')}
      pending={confirm.isPending}
      onSubmit={submit}
      onClose={onClose}
    >
      <p className="text-sm">{t('account.secondFactor.setup.scan')}</p>
      <QrCode
        value={setup.uri}
        label={t('account.secondFactor.setup.qrLabel')}
        className="size-48 self-center border border-line"
      />
      <div className="flex flex-col gap-1.5">
        <p className="text-sm text-ink-muted">{t('account.secondFactor.setup.typeSecret')}</p>
        <div className="flex flex-wrap items-start gap-2">
          <code
            ref={secretRef}
            aria-label={t('account.secondFactor.setup.secret')}
            className="min-h-9 min-w-0 flex-1 rounded-md border border-line bg-surface-muted px-3 py-1.5 font-mono text-sm leading-6 break-words select-all"
          >
            {groupedSecret(setup.secret)}
          </code>
          <CopyButton text={setup.secret} label={t('account.secondFactor.setup.copySecret')} source={secretRef} />
        </div>
      </div>
      <OneTimeCodeField
        label={t('account.secondFactor.setup.code')}
        name="code"
        autoFocus
        value={code}
        onChange={(event) => {
          setCode(event.target.value);
          setWrong(false);
        }}
        error={error}
      />
    </FormDialog>
  );
}
