import { CreateSprinklerBodySchema } from '@pivot/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '@/ui/form-dialog';
import { TextField } from '@/ui/form/text-field';
import { showToast } from '@/ui/toast/toast-store';
import { useCreateSprinkler } from '../api/create-sprinkler';
import { MachineIdField } from './machine-id-field';

const fieldSchemas = CreateSprinklerBodySchema.shape;

export type AddSprinklerDialogProps = {
  initialInternalId?: string;
  /** Leaves this form for the one that registers the controller, with the ID typed so far. */
  onRegisterController: (internalId: string) => void;
  onClose: () => void;
};

/**
 * Adds a machine by the ID it has on the message broker. The server asks the machine first,
 * which takes up to a few seconds: the button says it is waiting, and a failure keeps the form
 * open with its message (docs/product.md#errors), so the ID can be corrected. A machine answers only once its
 * controller is registered: the form says so and leads there.
 */
export function AddSprinklerDialog({ initialInternalId = '', onRegisterController, onClose }: AddSprinklerDialogProps) {
  const { t } = useTranslation();
  const create = useCreateSprinkler();
  const [internalId, setInternalId] = useState(initialInternalId);
  const [name, setName] = useState('');
  const [submitted, setSubmitted] = useState(false);

  const idError = (() => {
    if (internalId.trim() === '') return t('form.required');
    return fieldSchemas.internalId.safeParse(internalId).success ? undefined : t('admin.sprinklers.addForm.invalidId');
  })();

  const submit = async () => {
    setSubmitted(true);
    if (idError) return;
    const added = await create.run({ internalId, ...(name.trim() ? { name } : {}) });
    if (!added) return;
    showToast({
      variant: 'success',
      title: t('admin.sprinklers.added.title'),
      message: t('admin.sprinklers.added.message', { name: added.name, id: added.internalId }),
    });
    onClose();
  };

  return (
    <FormDialog
      title={t('admin.sprinklers.addForm.title')}
      description={
        <>
          {t('admin.sprinklers.addForm.registerFirst')}{' '}
          <button
            type="button"
            onClick={() => onRegisterController(internalId.trim())}
            className="font-semibold text-water underline underline-offset-4 hover:no-underline"
          >
            {t('admin.sprinklers.addForm.registerController')}
          </button>
        </>
      }
      submitLabel={t('admin.sprinklers.addForm.submit')}
      pendingLabel={t('admin.sprinklers.addForm.pending')}
      onSubmit={submit}
      onClose={onClose}
      pending={create.isPending}
    >
      <MachineIdField
        label={t('admin.sprinklers.addForm.internalId')}
        hint={t('admin.sprinklers.addForm.internalIdHint')}
        value={internalId}
        onChange={(event) => setInternalId(event.target.value)}
        error={submitted ? idError : undefined}
      />
      <TextField
        label={t('admin.sprinklers.addForm.name')}
        hint={t('admin.sprinklers.addForm.nameHint')}
        autoComplete="off"
        maxLength={100}
        value={name}
        onChange={(event) => setName(event.target.value)}
      />
      <p role="status" className={create.isPending ? 'text-sm text-ink-muted' : 'sr-only'}>
        {create.isPending ? t('admin.sprinklers.addForm.waiting') : ''}
      </p>
    </FormDialog>
  );
}
