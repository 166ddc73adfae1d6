import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/ui/button';
import { AddSprinklerDialog } from './add-sprinkler-dialog';
import { PlusIcon } from '@/ui/icons';

/** Opens the form that adds a machine by its broker ID. */
export function AddSprinklerButton() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button icon={<PlusIcon className="size-4" />} onClick={() => setOpen(true)}>
        {t('admin.sprinklers.add')}
      </Button>
      {open && <AddSprinklerDialog onClose={() => setOpen(false)} />}
    </>
  );
}
