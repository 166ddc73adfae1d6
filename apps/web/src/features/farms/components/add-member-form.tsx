import { EmailSchema, FARM_ROLES, type FarmRole } from '@pivot/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/ui/button';
import { Card } from '@/ui/card';
import { SelectField } from '@/ui/form/select-field';
import { TextField } from '@/ui/form/text-field';
import { PlusIcon } from '@/ui/other-icons';
import { showToast } from '@/ui/toast/toast-store';
import { useAddFarmMember } from '../api/add-farm-member';

/**
 * The server's administrator adds an existing account to the farm, by its email, in a role (a
 * farm's managers will invite people by email instead: docs/roles.md).
 */
export function AddMemberForm({ farmId }: { farmId: number }) {
  const { t } = useTranslation();
  const add = useAddFarmMember();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<FarmRole>('member');
  const [submitted, setSubmitted] = useState(false);
  const emailError = (() => {
    if (!submitted) return undefined;
    if (email.trim() === '') return t('farms.addMember.required');
    return EmailSchema.safeParse(email.trim()).success ? undefined : t('farms.addMember.invalidEmail');
  })();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (email.trim() === '' || !EmailSchema.safeParse(email.trim()).success) return;
    const added = await add.run(farmId, { email: email.trim(), role });
    if (!added) return;
    showToast({
      variant: 'success',
      title: t('farms.addMember.done.title'),
      message: t('farms.addMember.done.message', {
        name: `${added.first_name} ${added.last_name}`.trim() || added.email,
        role: t(`farms.roles.${added.role}`),
      }),
    });
    setEmail('');
    setRole('member');
    setSubmitted(false);
  };

  return (
    <Card aria-labelledby="add-member">
      <h2 id="add-member" className="mb-1 text-lg font-semibold">
        {t('farms.addMember.title')}
      </h2>
      <p className="mb-4 text-sm text-ink-muted">{t('farms.addMember.description')}</p>
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        <TextField
          label={t('farms.addMember.email')}
          type="email"
          autoComplete="off"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={emailError}
        />
        <SelectField
          label={t('farms.addMember.role')}
          value={role}
          onChange={(event) => setRole(event.target.value as FarmRole)}
          options={FARM_ROLES.map((option) => ({ value: option, label: t(`farms.roles.${option}`) }))}
        />
        <div>
          <Button type="submit" disabled={add.isPending} icon={<PlusIcon className="size-4" />}>
            {add.isPending ? t('farms.addMember.pending') : t('farms.addMember.submit')}
          </Button>
        </div>
      </form>
    </Card>
  );
}
