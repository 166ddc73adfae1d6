import { FARM_NAME_MAX } from '@pivot/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/ui/button';
import { TextField } from '@/ui/form/text-field';
import { PencilIcon } from '@/ui/other-icons';
import { showToast } from '@/ui/toast/toast-store';
import { useRenameFarm } from '../api/rename-farm';

/** The button that opens the rename form in place, beside the farm's name (its owners, the administrator). */
export function RenameFarmButton({ onClick, disabled }: { onClick: () => void; disabled: boolean }) {
  const { t } = useTranslation();
  return (
    <Button variant="secondary" icon={<PencilIcon className="size-4" />} onClick={onClick} disabled={disabled}>
      {t('farms.rename.action')}
    </Button>
  );
}

/** The farm's name in a field, under the title it replaces: saved with Enter or Save, left with Cancel or Escape. */
export function RenameFarmForm({ farm, onDone }: { farm: { id: number; name: string }; onDone: () => void }) {
  const { t } = useTranslation();
  const rename = useRenameFarm();
  const [name, setName] = useState(farm.name);
  const [submitted, setSubmitted] = useState(false);
  const error = submitted && name.trim() === '' ? t('farms.create.required') : undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (name.trim() === '') return;
    if (name.trim() === farm.name) {
      onDone();
      return;
    }
    if (!(await rename.run(farm.id, { name }))) return;
    showToast({ variant: 'success', title: t('farms.rename.done', { name: name.trim() }) });
    onDone();
  };

  return (
    <form
      noValidate
      onSubmit={submit}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onDone();
      }}
      aria-label={t('farms.rename.formLabel')}
      className="flex flex-wrap items-end gap-3 rounded-xl border border-line bg-surface p-4 shadow-sm"
    >
      <div className="min-w-0 flex-1 basis-64">
        <TextField
          label={t('farms.rename.label')}
          autoComplete="off"
          // The form opens on the user's press: the field is what they came for.
          autoFocus
          maxLength={FARM_NAME_MAX}
          required
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={error}
        />
      </div>
      <div className="flex gap-2">
        <Button type="submit" disabled={rename.isPending}>
          {t('farms.rename.save')}
        </Button>
        <Button variant="secondary" onClick={onDone}>
          {t('farms.rename.cancel')}
        </Button>
      </div>
    </form>
  );
}
