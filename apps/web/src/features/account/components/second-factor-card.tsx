import type { SecondFactorSetup, User } from '@pivot/contracts';
import { Suspense, lazy, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDateTimeFormat } from '@/i18n/use-date-time-format';
import { Badge } from '@/ui/badge';
import { Button } from '@/ui/button';
import { Card } from '@/ui/card';
import { KeyIcon } from '@/ui/other-icons';
import { showToast } from '@/ui/toast/toast-store';
import { renewRecoveryCodes, startSecondFactor, turnOffSecondFactor } from '../api/change-second-factor';
import { useSecondFactorStatus } from '../api/get-second-factor-status';
import { usePasskeys } from '../api/passkeys';
import { SECOND_FACTOR_CARD_ID } from '../hooks/use-second-factor-set-up-when-required';
import type { PasswordCallResult } from '../api/second-factor-password-call';
import { PasskeysList } from './passkeys-list';
import { PasswordDialog } from './password-dialog';
import { RecoveryCodesDialog } from './recovery-codes-dialog';

/** The set-up dialog and its QR code library, fetched when the user starts turning it on. */
const loadSetupDialog = () => import('./second-factor-setup-dialog');
const SecondFactorSetupDialog = lazy(async () => ({ default: (await loadSetupDialog()).SecondFactorSetupDialog }));

type OpenDialog =
  | { kind: 'turn-on-password' | 'renew-password' | 'turn-off-password' }
  | { kind: 'setup'; setup: SecondFactorSetup }
  | { kind: 'codes'; codes: string[] }
  | null;

/**
 * Two-step sign-in of the signed-in user (docs/web-app.md#two-step-sign-in): off, how to turn it
 * on (password, the app's QR code and first code, then the recovery codes, shown once); on, since
 * when, the recovery codes left, a new set of them, and turning it off; the passkeys beside the app
 * (passkeys-list.tsx). Each change asks the password.
 */
export function SecondFactorCard({ user }: { user: User }) {
  const { t } = useTranslation();
  const dates = useDateTimeFormat();
  const status = useSecondFactorStatus();
  const passkeys = usePasskeys();
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const close = () => setDialog(null);

  // Sent here to set it up (a server that requires it of administrators): the card is in view.
  useEffect(() => {
    if (location.hash === `#${SECOND_FACTOR_CARD_ID}`) {
      document.getElementById(SECOND_FACTOR_CARD_ID)?.scrollIntoView({ block: 'center' });
    }
  }, []);

  /** What a password dialog's call gave, for the dialog; on success the next dialog or a toast. */
  const withPassword =
    <Answer,>(call: (password: string) => Promise<PasswordCallResult<Answer>>, next: (answer: Answer) => void) =>
    async (password: string) => {
      const result = await call(password);
      if (result.ok) {
        next(result.data);
        return 'done' as const;
      }
      return result.wrongPassword ? ('wrong' as const) : ('failed' as const);
    };

  const data = status.data || null;
  // A passkey is a second factor too: with one, two-step sign-in is on though the app is not.
  const on = Boolean(data?.enabled) || (passkeys.data || []).length > 0;
  return (
    <Card aria-labelledby={SECOND_FACTOR_CARD_ID}>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <h2 id={SECOND_FACTOR_CARD_ID} className="flex items-center gap-2 text-lg font-semibold">
          <KeyIcon className="size-5 text-ink-muted" />
          {t('account.secondFactor.title')}
        </h2>
        {data && (
          <Badge tone={on ? 'success' : 'muted'}>
            {on ? t('account.secondFactor.on') : t('account.secondFactor.off')}
          </Badge>
        )}
      </div>
      {data && !data.enabled && (
        <>
          <p className="mb-4 text-sm text-ink-muted">{t('account.secondFactor.offExplanation')}</p>
          <Button
            onClick={() => {
              void loadSetupDialog().catch(() => undefined);
              setDialog({ kind: 'turn-on-password' });
            }}
          >
            {t('account.secondFactor.turnOn')}
          </Button>
        </>
      )}
      {data?.enabled && (
        <>
          <div className="mb-4 flex flex-col gap-1 text-sm">
            {data.enabled_at && (
              <p>{t('account.secondFactor.onSince', { date: dates.dateTime(Date.parse(data.enabled_at)) })}</p>
            )}
            <p className={data.recovery_codes_left <= 2 ? 'font-medium text-warning' : ''}>
              {t('account.secondFactor.codesLeft', { count: data.recovery_codes_left })}
            </p>
          </div>
          <div className="flex flex-wrap gap-3">
            <Button variant="secondary" onClick={() => setDialog({ kind: 'renew-password' })}>
              {t('account.secondFactor.renew')}
            </Button>
            <Button variant="secondary" onClick={() => setDialog({ kind: 'turn-off-password' })}>
              {t('account.secondFactor.turnOff')}
            </Button>
          </div>
        </>
      )}

      {data && <PasskeysList />}

      {dialog?.kind === 'turn-on-password' && (
        <PasswordDialog
          title={t('account.secondFactor.password.turnOnTitle')}
          description={t('account.secondFactor.password.turnOnDescription')}
          submitLabel={t('account.secondFactor.password.turnOnSubmit')}
          onPassword={withPassword(startSecondFactor, (setup) => setDialog({ kind: 'setup', setup }))}
          onClose={close}
        />
      )}
      {dialog?.kind === 'setup' && (
        <Suspense fallback={null}>
          <SecondFactorSetupDialog
            setup={dialog.setup}
            onConfirmed={(codes) => {
              showToast({ variant: 'success', title: t('account.secondFactor.turnedOn') });
              setDialog({ kind: 'codes', codes });
            }}
            onClose={close}
          />
        </Suspense>
      )}
      {dialog?.kind === 'renew-password' && (
        <PasswordDialog
          title={t('account.secondFactor.password.renewTitle')}
          description={t('account.secondFactor.password.renewDescription')}
          submitLabel={t('account.secondFactor.password.renewSubmit')}
          onPassword={withPassword(renewRecoveryCodes, ({ recovery_codes }) =>
            setDialog({ kind: 'codes', codes: recovery_codes }),
          )}
          onClose={close}
        />
      )}
      {dialog?.kind === 'turn-off-password' && (
        <PasswordDialog
          title={t('account.secondFactor.password.turnOffTitle')}
          description={t('account.secondFactor.password.turnOffDescription')}
          submitLabel={t('account.secondFactor.password.turnOffSubmit')}
          onPassword={withPassword(turnOffSecondFactor, () => {
            showToast({ variant: 'success', title: t('account.secondFactor.turnedOff') });
            close();
          })}
          onClose={close}
        />
      )}
      {dialog?.kind === 'codes' && <RecoveryCodesDialog codes={dialog.codes} email={user.email} onClose={close} />}
    </Card>
  );
}
