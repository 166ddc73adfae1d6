import { REMEMBERED_BROWSER_DAYS, RecoveryCodeSchema, type SecondFactorMethod, TotpCodeSchema } from '@pivot/contracts';
import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/ui/button';
import { CheckboxField } from '@/ui/form/checkbox-field';
import { OneTimeCodeField } from '@/ui/form/one-time-code-field';
import { TextField } from '@/ui/form/text-field';
import { promptPasskey } from '@/lib/passkey-prompt';
import { ChevronLeftIcon, KeyIcon } from '@/ui/other-icons';
import { getPasskeySignInOptions } from '../api/passkey-sign-in-options';
import { useSecondFactorSignIn } from '../api/second-factor-sign-in';

export type SecondFactorStepProps = {
  /** The login's challenge, sent back with the code. */
  challenge: string;
  /** What the account can answer with: the app's code (and recovery codes), a passkey, or both. */
  methods: SecondFactorMethod[];
  /** Signed in: the session is stored; the login page goes on as after a password alone. */
  onSignedIn: () => void | Promise<void>;
  /** Back to the password, by the user's choice. */
  onBack: () => void;
  /** The challenge ran out (time or tries): the password is asked again. */
  onExpired: () => void;
};

type Method = 'code' | 'recovery';
/** Why the passkey did not sign in, said under its button. */
type PasskeyProblem = 'unsupported' | 'closed' | 'rejected';

const PASSKEY_PROBLEM_TEXTS = {
  unsupported: 'secondFactor.passkeyUnsupported',
  closed: 'secondFactor.passkeyClosed',
  rejected: 'errorCodes.passkey_rejected.message',
} as const satisfies Record<PasskeyProblem, string>;

const linkClasses = 'inline-flex items-center gap-1 text-sm font-medium text-water underline underline-offset-4';

/**
 * The second step of signing in (docs/web-app.md#two-step-sign-in), shown in the login page's card
 * once a right password answered a challenge: the authenticator's code, or a recovery code, or the
 * browser's passkey prompt (when the account has a passkey), and whether to remember this browser.
 * Fetched with its texts only then, not with the login page.
 */
export function SecondFactorStep({ challenge, methods, onSignedIn, onBack, onExpired }: SecondFactorStepProps) {
  const { t } = useTranslation();
  const signIn = useSecondFactorSignIn();
  const form = useRef<HTMLFormElement>(null);
  const [method, setMethod] = useState<Method>('code');
  const [code, setCode] = useState('');
  const [recoveryCode, setRecoveryCode] = useState('');
  const [rememberBrowser, setRememberBrowser] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  // The server's "wrong code" stays by the field until the code is changed.
  const [refused, setRefused] = useState(false);
  const [passkeyPending, setPasskeyPending] = useState(false);
  const [passkeyProblem, setPasskeyProblem] = useState<PasskeyProblem | null>(null);
  const withCode = methods.includes('code');
  const withPasskey = methods.includes('passkey');

  const value = method === 'code' ? code : recoveryCode;
  const wellFormed = (method === 'code' ? TotpCodeSchema : RecoveryCodeSchema).safeParse(value).success;
  const formatError =
    value.trim() === ''
      ? t('form.required')
      : wellFormed
        ? undefined
        : t(method === 'code' ? 'secondFactor.invalidCode' : 'secondFactor.invalidRecoveryCode');
  const error = refused ? t('errorCodes.second_factor_incorrect.message') : submitted ? formatError : undefined;

  const switchMethod = () => {
    setMethod(method === 'code' ? 'recovery' : 'code');
    setSubmitted(false);
    setRefused(false);
  };

  /** The server's options for this challenge, the browser's prompt, then the sign-in with its answer. */
  const signInWithPasskey = async () => {
    if (passkeyPending || signIn.isPending) return;
    setPasskeyPending(true);
    setPasskeyProblem(null);
    try {
      const options = await getPasskeySignInOptions(challenge);
      if (options === 'expired') return onExpired();
      if (!options) return;
      const prompted = await promptPasskey(options);
      if (!prompted.ok) return setPasskeyProblem(prompted.reason);
      const result = await signIn.run({ challenge, passkey: prompted.answer, rememberBrowser });
      if (result.ok) return await onSignedIn();
      if (result.refusal === 'second_factor_challenge_expired') onExpired();
      else if (result.refusal === 'passkey_rejected') setPasskeyProblem('rejected');
    } finally {
      setPasskeyPending(false);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!withCode) return signInWithPasskey();
    setSubmitted(true);
    if (formatError || signIn.isPending) return;
    const result = await signIn.run(
      method === 'code' ? { challenge, code, rememberBrowser } : { challenge, recoveryCode, rememberBrowser },
    );
    if (result.ok) {
      await onSignedIn();
      return;
    }
    if (result.refusal === 'second_factor_challenge_expired') onExpired();
    else if (result.refusal === 'second_factor_incorrect') {
      setRefused(true);
      form.current?.querySelector<HTMLInputElement>('input[name="code"], input[name="recoveryCode"]')?.select();
    }
  };

  return (
    <form ref={form} noValidate onSubmit={submit} className="flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <h2 className="text-lg font-semibold">{t('secondFactor.title')}</h2>
        <p className="text-sm text-ink-muted">
          {!withCode
            ? t('secondFactor.passkeyIntro')
            : method === 'code'
              ? t('secondFactor.codeIntro')
              : t('secondFactor.recoveryIntro')}
        </p>
      </div>
      {!withCode ? null : method === 'code' ? (
        <OneTimeCodeField
          key="code"
          label={t('secondFactor.code')}
          name="code"
          autoFocus
          value={code}
          onChange={(event) => {
            setCode(event.target.value);
            setRefused(false);
          }}
          error={error}
        />
      ) : (
        <TextField
          key="recovery"
          label={t('secondFactor.recoveryCode')}
          name="recoveryCode"
          autoComplete="off"
          autoCapitalize="none"
          autoFocus
          maxLength={40}
          spellCheck={false}
          className="font-mono"
          value={recoveryCode}
          onChange={(event) => {
            setRecoveryCode(event.target.value);
            setRefused(false);
          }}
          error={error}
        />
      )}
      {withCode && (
        <button type="button" onClick={switchMethod} className={`${linkClasses} self-start`}>
          {method === 'code' ? t('secondFactor.useRecovery') : t('secondFactor.useCode')}
        </button>
      )}
      <CheckboxField
        label={t('secondFactor.rememberBrowser', { days: REMEMBERED_BROWSER_DAYS })}
        checked={rememberBrowser}
        onChange={(event) => setRememberBrowser(event.target.checked)}
        onEnter={() => form.current?.requestSubmit()}
      />
      {withCode && (
        <Button type="submit" disabled={signIn.isPending || passkeyPending} className="mt-2 w-full">
          {signIn.isPending && !passkeyPending ? t('secondFactor.submitting') : t('secondFactor.submit')}
        </Button>
      )}
      {withPasskey && (
        <Button
          type="button"
          variant={withCode ? 'secondary' : 'primary'}
          disabled={signIn.isPending || passkeyPending}
          onClick={() => void signInWithPasskey()}
          icon={<KeyIcon className="size-4" />}
          className={`w-full ${withCode ? '' : 'mt-2'}`}
        >
          {passkeyPending ? t('secondFactor.passkeyWaiting') : t('secondFactor.usePasskey')}
        </Button>
      )}
      {passkeyProblem && (
        <p role="alert" className="text-sm font-medium text-error">
          {t(PASSKEY_PROBLEM_TEXTS[passkeyProblem])}
        </p>
      )}
      <button type="button" onClick={onBack} className={`${linkClasses} self-center`}>
        <ChevronLeftIcon className="size-4" />
        {t('secondFactor.back')}
      </button>
    </form>
  );
}
