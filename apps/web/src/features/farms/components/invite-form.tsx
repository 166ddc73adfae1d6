import { EmailSchema, type FarmRole } from '@pivot/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/ui/button';
import { Card } from '@/ui/card';
import { SelectField } from '@/ui/form/select-field';
import { TextField } from '@/ui/form/text-field';
import { PlusIcon } from '@/ui/other-icons';
import { showToast } from '@/ui/toast/toast-store';
import { useInviteToFarm } from '../api/invite-to-farm';
import { type Standing, rolesToInvite } from '../lib/farm-rules';

/**
 * A farm's owners and managers (and the administrator) invite a person by email, in a role: the
 * server mails them a link to join (managers may not invite an owner, so the select leaves it out).
 */
export function InviteForm({ farmId, standing }: { farmId: number; standing: Standing }) {
  const { t } = useTranslation();
  const invite = useInviteToFarm();
  const roles = rolesToInvite(standing);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<FarmRole>('member');
  const [submitted, setSubmitted] = useState(false);
  const valid = EmailSchema.safeParse(email.trim()).success;
  const emailError = (() => {
    if (!submitted) return undefined;
    if (email.trim() === '') return t('farms.invite.required');
    return valid ? undefined : t('farms.invite.invalidEmail');
  })();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (!valid) return;
    const invited = await invite.run(farmId, { email: email.trim(), role });
    if (!invited) return;
    showToast({
      variant: 'success',
      title: t('farms.invite.done.title'),
      message: t('farms.invite.done.message', { email: invited.email, role: t(`farms.roles.${invited.role}`) }),
    });
    setEmail('');
    setRole('member');
    setSubmitted(false);
  };

  return (
    <Card aria-labelledby="invite">
      <h2 id="invite" className="mb-1 text-lg font-semibold">
        {t('farms.invite.title')}
      </h2>
      <p className="mb-4 text-sm text-ink-muted">{t('farms.invite.description')}</p>
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        <TextField
          label={t('farms.invite.email')}
          type="email"
          autoComplete="off"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={emailError}
        />
        <SelectField
          label={t('farms.invite.role')}
          value={role}
          onChange={(event) => setRole(event.target.value as FarmRole)}
          options={roles.map((option) => ({ value: option, label: t(`farms.roles.${option}`) }))}
        />
        <div>
          <Button type="submit" disabled={invite.isPending} icon={<PlusIcon className="size-4" />}>
            {invite.isPending ? t('farms.invite.pending') : t('farms.invite.submit')}
          </Button>
        </div>
      </form>
    </Card>
  );
}
