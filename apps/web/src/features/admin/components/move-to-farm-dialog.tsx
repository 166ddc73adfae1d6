import type { SprinklerListItem } from '@pivot/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { paths } from '@/config/paths';
import { FormDialog } from '@/ui/form-dialog';
import { SelectField } from '@/ui/form/select-field';
import { AppLink } from '@/ui/link';
import { showToast } from '@/ui/toast/toast-store';
import { useFarms } from '../api/get-farms';
import { useMoveSprinklerToFarm } from '../api/move-sprinkler-to-farm';

/**
 * Places a machine in one of the server's farms (or moves it to another), picked from a select;
 * the people of other farms lose their grants of it, which the dialog says before.
 */
export function MoveToFarmDialog({ sprinkler, onClose }: { sprinkler: SprinklerListItem; onClose: () => void }) {
  const { t } = useTranslation();
  const { data: farms, isPending } = useFarms();
  const move = useMoveSprinklerToFarm();
  // None is picked at first: the list does not say which farm the machine is in now.
  const [farmId, setFarmId] = useState('');
  const choices = farms || [];

  const submit = async () => {
    if (!farmId) return;
    const farm = await move.run(sprinkler.id, { farmId: Number(farmId) });
    if (!farm) return;
    showToast({
      variant: 'success',
      title: t('admin.sprinklers.moveToFarm.done.title'),
      message: t('admin.sprinklers.moveToFarm.done.message', { name: sprinkler.name, farm: farm.name }),
    });
    onClose();
  };

  return (
    <FormDialog
      title={t('admin.sprinklers.moveToFarm.title', { name: sprinkler.name })}
      description={t('admin.sprinklers.moveToFarm.description')}
      submitLabel={t('admin.sprinklers.moveToFarm.submit')}
      pendingLabel={t('admin.sprinklers.moveToFarm.pending')}
      onSubmit={submit}
      onClose={onClose}
      pending={move.isPending}
      submitDisabled={!farmId}
    >
      {isPending ? (
        <p className="text-ink-muted">{t('admin.sprinklers.moveToFarm.loading')}</p>
      ) : choices.length === 0 ? (
        <p>
          {t('admin.sprinklers.moveToFarm.noFarms')}{' '}
          <AppLink to={paths.farms.link()} className="font-semibold text-water underline underline-offset-4">
            {t('admin.sprinklers.moveToFarm.toFarms')}
          </AppLink>
        </p>
      ) : (
        <SelectField
          label={t('admin.sprinklers.moveToFarm.label')}
          value={farmId}
          onChange={(event) => setFarmId(event.target.value)}
          options={[
            { value: '', label: t('admin.sprinklers.moveToFarm.choose') },
            ...choices.map((farm) => ({ value: String(farm.id), label: farm.name })),
          ]}
        />
      )}
    </FormDialog>
  );
}
