import { EmailSchema, type FarmRole } from '@pivot/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/ui/button';
import { Card } from '@/ui/card';
import { SelectField } from '@/ui/form/select-field';
import { TextField } from '@/ui/form/text-field';
import { PlusIcon } from '@/ui/other-icons';

/**
 * A person named by their email, in one of `roles`, for the farm: added as an existing account
 * (`addMember`, the administrator's) or invited by mail (`invite`). `send` tells whether it
 * went; the form is emptied when it did.
 */
export function PersonByEmailForm({
  kind,
  roles,
  pending,
  send,
}: {
  kind: 'addMember' | 'invite';
  roles: readonly FarmRole[];
  pending: boolean;
  send: (person: { email: string; role: FarmRole }) => Promise<boolean>;
}) {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<FarmRole>('member');
  const [submitted, setSubmitted] = useState(false);
  const valid = EmailSchema.safeParse(email.trim()).success;
  const emailError = (() => {
    if (!submitted) return undefined;
    if (email.trim() === '') return t(`farms.${kind}.required`);
    return valid ? undefined : t(`farms.${kind}.invalidEmail`);
  })();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (!valid || !(await send({ email: email.trim(), role }))) return;
    setEmail('');
    setRole('member');
    setSubmitted(false);
  };

  const headingId = kind === 'invite' ? 'invite' : 'add-member';
  return (
    <Card aria-labelledby={headingId}>
      <h2 id={headingId} className="mb-1 text-lg font-semibold">
        {t(`farms.${kind}.title`)}
      </h2>
      <p className="mb-4 text-sm text-ink-muted">{t(`farms.${kind}.description`)}</p>
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        <TextField
          label={t(`farms.${kind}.email`)}
          type="email"
          autoComplete="off"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={emailError}
        />
        <SelectField
          label={t(`farms.${kind}.role`)}
          value={role}
          onChange={(event) => setRole(event.target.value as FarmRole)}
          options={roles.map((option) => ({ value: option, label: t(`farms.roles.${option}`) }))}
        />
        <div>
          <Button type="submit" disabled={pending} icon={<PlusIcon className="size-4" />}>
            {pending ? t(`farms.${kind}.pending`) : t(`farms.${kind}.submit`)}
          </Button>
        </div>
      </form>
    </Card>
  );
}
