import {
  type AcceptInvitationBody,
  IdTextSchema,
  type InvitationPreview,
  InvitationTokenSchema,
  PersonNameSchema,
  USER_FIELD_LIMITS,
} from '@pivot/contracts';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { paths } from '@/config/paths';
import type { PasswordFieldErrors } from '@/lib/password-errors';
import { Badge } from '@/ui/badge';
import { Button, ButtonLink } from '@/ui/button';
import { Card } from '@/ui/card';
import { type NewPassword, NewPasswordFields, isAcceptableNewPassword } from '@/ui/form/new-password-fields';
import { PasswordField } from '@/ui/form/password-field';
import { TextField } from '@/ui/form/text-field';
import { AppLink, useAppNavigate } from '@/ui/link';
import { SpinnerIcon, WarningIcon } from '@/ui/other-icons';
import { showToast } from '@/ui/toast/toast-store';
import { useAcceptInvitation } from '../api/accept-invitation';
import { useInvitationPreview } from '../api/preview-invitation';

/**
 * The page of a farm's mailed invitation (docs/roles.md, "Invitations"): who invites, in what
 * role, to which address; accepted with the account's password, or by a new person with their
 * names and a new password. Then the person signs in.
 */
export function InvitationForm() {
  const params = useParams();
  const id = IdTextSchema.safeParse(params.id);
  const token = InvitationTokenSchema.safeParse(params.token);
  // A link cut short or mangled on its way: nothing to ask the server about.
  if (!id.success || !token.success) return <LinkNoLongerWorks />;
  return <InvitationOfLink id={id.data} token={token.data} />;
}

function InvitationOfLink({ id, token }: { id: number; token: string }) {
  const { t } = useTranslation();
  const { result, retry } = useInvitationPreview(id, token);
  // The link stopped working while the page was open (accepted in another tab, revoked, resent).
  const [linkDead, setLinkDead] = useState(false);

  if (linkDead || result.state === 'invalid') return <LinkNoLongerWorks />;
  if (result.state === 'loading') {
    return (
      <Card>
        <p role="status" className="flex items-center gap-2 text-ink-muted">
          <SpinnerIcon className="size-5 shrink-0 animate-spin" />
          {t('invitation.loading')}
        </p>
      </Card>
    );
  }
  if (result.state === 'failed') {
    return (
      <Card className="flex flex-col gap-4">
        <p role="alert">{t('invitation.loadFailed')}</p>
        <Button onClick={retry} className="w-full">
          {t('invitation.retry')}
        </Button>
      </Card>
    );
  }
  return (
    <AcceptForm
      id={id}
      token={token}
      preview={result.preview}
      onLinkDead={() => setLinkDead(true)}
      onAccountChanged={retry}
    />
  );
}

/** Used, revoked, replaced by a resent one, expired, or mangled: only the farm can send a new one. */
function LinkNoLongerWorks() {
  const { t } = useTranslation();
  return (
    <Card className="flex flex-col gap-4">
      <div role="alert" className="flex items-start gap-3">
        <WarningIcon className="mt-0.5 size-6 shrink-0 text-warning" />
        <div className="flex flex-col gap-1">
          <p className="font-semibold">{t('invitation.invalid')}</p>
          <p className="text-sm text-ink-muted">{t('invitation.invalidWhy')}</p>
        </div>
      </div>
      <ButtonLink to={paths.login.link()} variant="secondary" className="w-full">
        {t('invitation.toLogin')}
      </ButtonLink>
    </Card>
  );
}

type AcceptFormProps = {
  id: number;
  token: string;
  preview: InvitationPreview;
  onLinkDead: () => void;
  /** The address got (or lost) an account since the page was read: read it again. */
  onAccountChanged: () => void;
};

function AcceptForm({ id, token, preview, onLinkDead, onAccountChanged }: AcceptFormProps) {
  const { t } = useTranslation();
  const navigate = useAppNavigate();
  const accept = useAcceptInvitation();
  const warningId = useId();
  const [submitted, setSubmitted] = useState(false);
  const [password, setPassword] = useState('');
  const [wrongPassword, setWrongPassword] = useState(false);
  const [names, setNames] = useState({ first_name: '', last_name: '' });
  const [newPassword, setNewPassword] = useState<NewPassword>({ newPassword: '', repeatNewPassword: '' });
  const [passwordErrors, setPasswordErrors] = useState<PasswordFieldErrors>({});

  const nameError = (name: string) =>
    submitted && !PersonNameSchema.safeParse(name).success ? t('form.required') : undefined;
  const passwordError = submitted && password === '' ? t('form.required') : undefined;

  const body = (): AcceptInvitationBody | null => {
    if (preview.accountExists) return password === '' ? null : { token, password };
    const namesGiven = [names.first_name, names.last_name].every((name) => PersonNameSchema.safeParse(name).success);
    return namesGiven && isAcceptableNewPassword(newPassword) ? { token, ...names, ...newPassword } : null;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    const sent = body();
    if (!sent) return;
    const outcome = await accept.run(id, sent);
    if (outcome.ok) {
      showToast({
        variant: 'success',
        title: t('invitation.joinedTitle', { farm: preview.farmName }),
        message: t('invitation.joinedMessage'),
      });
      // The login form has no address to prefill: the person types it (their browser may offer it).
      navigate(paths.login.link());
      return;
    }
    if (outcome.reason === 'invalid_link') onLinkDead();
    else if (outcome.reason === 'invalid_credentials' && preview.accountExists) setWrongPassword(true);
    else if (outcome.reason === 'invalid_credentials') onAccountChanged();
    else if (outcome.reason === 'password_rejected') setPasswordErrors(outcome.fieldErrors ?? {});
  };

  return (
    <Card>
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        <Card variant="box" className="flex flex-col gap-2">
          <p className="text-lg font-semibold break-words">
            {t(`invitation.invites.${preview.role}`, { farm: preview.farmName })}
          </p>
          <p className="flex flex-wrap items-center gap-2 text-sm text-ink-muted">
            <Badge tone="water">{t(`invitation.roles.${preview.role}`)}</Badge>
            {t(`invitation.roleMeaning.${preview.role}`)}
          </p>
        </Card>
        {/* The address as text, wrapped whole however long: in a read-only field its end was cut off. */}
        <dl className="flex flex-col gap-1.5">
          <dt className="text-sm font-medium">{t('invitation.email')}</dt>
          <dd className="rounded-md border border-line bg-surface-muted px-3 py-2 break-all">{preview.email}</dd>
        </dl>
        {/* For the browser's password manager: the account the password belongs to. */}
        <input type="email" name="email" autoComplete="username" value={preview.email} readOnly hidden />
        {preview.accountExists ? (
          <>
            <p className="text-sm text-ink-muted">{t('invitation.existingAccount')}</p>
            <PasswordField
              label={t('invitation.password')}
              name="password"
              autoComplete="current-password"
              value={password}
              onChange={(event) => {
                setPassword(event.target.value);
                setWrongPassword(false);
              }}
              error={passwordError}
              // Refused by the server: the warning under it tells why (it is no rule of the field's own).
              {...(wrongPassword ? { 'aria-invalid': true, 'aria-describedby': warningId } : {})}
            />
            {wrongPassword && (
              <p
                id={warningId}
                role="alert"
                className="-mt-2 flex items-start gap-2 rounded-lg bg-warning-soft p-3 text-sm font-medium"
              >
                <WarningIcon className="mt-0.5 size-5 shrink-0 text-warning" />
                {t('invitation.wrongPassword')}
              </p>
            )}
          </>
        ) : (
          <>
            <p className="text-sm text-ink-muted">{t('invitation.newAccount')}</p>
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField
                label={t('userFields.firstName')}
                name="first_name"
                autoComplete="given-name"
                required
                maxLength={USER_FIELD_LIMITS.name}
                value={names.first_name}
                onChange={(event) => setNames({ ...names, first_name: event.target.value })}
                error={nameError(names.first_name)}
              />
              <TextField
                label={t('userFields.lastName')}
                name="last_name"
                autoComplete="family-name"
                required
                maxLength={USER_FIELD_LIMITS.name}
                value={names.last_name}
                onChange={(event) => setNames({ ...names, last_name: event.target.value })}
                error={nameError(names.last_name)}
              />
            </div>
            <NewPasswordFields
              value={newPassword}
              onChange={(next) => {
                setNewPassword(next);
                setPasswordErrors({});
              }}
              errors={passwordErrors}
              submitted={submitted}
            />
          </>
        )}
        <Button type="submit" disabled={accept.isPending} className="mt-2 w-full">
          {accept.isPending ? t('invitation.accepting') : t('invitation.accept')}
        </Button>
        {preview.accountExists && (
          <AppLink to={paths.forgot.link()} className="text-sm font-medium text-water underline underline-offset-4">
            {t('login.forgot')}
          </AppLink>
        )}
      </form>
    </Card>
  );
}
