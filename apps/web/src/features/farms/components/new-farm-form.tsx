import { FARM_NAME_MAX } from '@pivot/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { paths } from '@/config/paths';
import { Button } from '@/ui/button';
import { Card } from '@/ui/card';
import { TextField } from '@/ui/form/text-field';
import { useAppNavigate } from '@/ui/link';
import { PlusIcon } from '@/ui/other-icons';
import { showToast } from '@/ui/toast/toast-store';
import { useCreateFarm } from '../api/create-farm';

/** The server's administrator creates a farm by its name, and is taken to it to add its people. */
export function NewFarmForm() {
  const { t } = useTranslation();
  const create = useCreateFarm();
  const navigate = useAppNavigate();
  const [name, setName] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const error = submitted && name.trim() === '' ? t('farms.create.required') : undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (name.trim() === '') return;
    const farm = await create.run({ name });
    if (!farm) return;
    showToast({ variant: 'success', title: t('farms.create.done', { name: farm.name }) });
    navigate(paths.farm.link(farm.id));
  };

  return (
    <Card aria-labelledby="new-farm">
      <h2 id="new-farm" className="mb-1 text-lg font-semibold">
        {t('farms.create.title')}
      </h2>
      <p className="mb-4 text-sm text-ink-muted">{t('farms.create.description')}</p>
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        <TextField
          label={t('farms.create.label')}
          autoComplete="off"
          maxLength={FARM_NAME_MAX}
          required
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={error}
        />
        <div>
          <Button type="submit" disabled={create.isPending} icon={<PlusIcon className="size-4" />}>
            {create.isPending ? t('farms.create.pending') : t('farms.create.submit')}
          </Button>
        </div>
      </form>
    </Card>
  );
}
