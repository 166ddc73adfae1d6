import { DEALER_NAME_MAX, EmailSchema } from '@pivot/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/ui/button';
import { Card } from '@/ui/card';
import { SelectField } from '@/ui/form/select-field';
import { TextField } from '@/ui/form/text-field';
import { PlusIcon } from '@/ui/other-icons';
import { showToast } from '@/ui/toast/toast-store';
import { useAddDealerMember } from '../api/add-dealer-member';
import { useCreateDealer } from '../api/create-dealer';
import { useDealers } from '../api/get-dealers';
import { DealerMembers } from './dealer-members';

/** The administrator creates a dealer by its name. */
function NewDealerForm() {
  const { t } = useTranslation();
  const create = useCreateDealer();
  const [name, setName] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const error = submitted && name.trim() === '' ? t('farms.dealerAdmin.create.required') : undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (name.trim() === '') return;
    const dealer = await create.run({ name });
    if (!dealer) return;
    showToast({ variant: 'success', title: t('farms.dealerAdmin.create.done', { name: dealer.name }) });
    setName('');
    setSubmitted(false);
  };

  return (
    <form
      noValidate
      onSubmit={submit}
      aria-label={t('farms.dealerAdmin.create.formLabel')}
      className="flex flex-col gap-4"
    >
      <TextField
        label={t('farms.dealerAdmin.create.label')}
        autoComplete="off"
        maxLength={DEALER_NAME_MAX}
        required
        value={name}
        onChange={(event) => setName(event.target.value)}
        error={error}
      />
      <div>
        <Button type="submit" disabled={create.isPending} icon={<PlusIcon className="size-4" />}>
          {create.isPending ? t('farms.dealerAdmin.create.pending') : t('farms.dealerAdmin.create.submit')}
        </Button>
      </div>
    </form>
  );
}

/** The administrator makes an existing account, by its email, a member of a dealer. */
function AddDealerMemberForm() {
  const { t } = useTranslation();
  const { data: dealers } = useDealers();
  const add = useAddDealerMember();
  const [dealerId, setDealerId] = useState('');
  const [email, setEmail] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const dealer = dealers ? dealers.find((candidate) => String(candidate.id) === dealerId) : undefined;
  const validEmail = EmailSchema.safeParse(email.trim()).success;
  const errors = {
    dealer: submitted && !dealer ? t('farms.dealerAdmin.addMember.dealerRequired') : undefined,
    email: (() => {
      if (!submitted) return undefined;
      if (email.trim() === '') return t('farms.dealerAdmin.addMember.required');
      return validEmail ? undefined : t('farms.dealerAdmin.addMember.invalidEmail');
    })(),
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (!dealer || !validEmail) return;
    if (!(await add.run(dealer.id, { email: email.trim() }))) return;
    showToast({
      variant: 'success',
      title: t('farms.dealerAdmin.addMember.done', { email: email.trim(), dealer: dealer.name }),
    });
    setEmail('');
    setSubmitted(false);
  };

  return (
    <form
      noValidate
      onSubmit={submit}
      aria-label={t('farms.dealerAdmin.addMember.formLabel')}
      className="flex flex-col gap-4"
    >
      <SelectField
        label={t('farms.dealerAdmin.addMember.dealer')}
        value={dealerId}
        onChange={(event) => setDealerId(event.target.value)}
        error={errors.dealer}
        options={[
          { value: '', label: t('farms.grant.chooseDealer') },
          ...(dealers || []).map((option) => ({ value: String(option.id), label: option.name })),
        ]}
      />
      <TextField
        label={t('farms.dealerAdmin.addMember.email')}
        type="email"
        autoComplete="off"
        required
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        error={errors.email}
      />
      <div>
        <Button type="submit" disabled={add.isPending} icon={<PlusIcon className="size-4" />}>
          {add.isPending ? t('farms.dealerAdmin.addMember.pending') : t('farms.dealerAdmin.addMember.submit')}
        </Button>
      </div>
    </form>
  );
}

/**
 * The server's administrator's dealers (docs/roles.md, "Dealers"): a dealer created by its name,
 * an existing account made its member, each dealer's members listed and removed; the farms then
 * grant dealers access on their pages.
 */
export function DealersPanel() {
  const { t } = useTranslation();
  const { data: dealers } = useDealers();
  return (
    <Card aria-labelledby="dealers-panel" className="flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <h2 id="dealers-panel" className="text-lg font-semibold">
          {t('farms.dealerAdmin.title')}
        </h2>
        <p className="text-sm text-ink-muted">{t('farms.dealerAdmin.description')}</p>
      </div>
      <NewDealerForm />
      <hr className="border-line" />
      <AddDealerMemberForm />
      {dealers && (
        <>
          <hr className="border-line" />
          <DealerMembers dealers={dealers} />
        </>
      )}
    </Card>
  );
}
