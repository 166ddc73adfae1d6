import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/ui/button';
import { PlusIcon } from '@/ui/other-icons';
import { UserFormDialog } from './user-form-dialog';

/** Opens the form for a new user. */
export function AddUserButton() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button icon={<PlusIcon className="size-4" />} onClick={() => setOpen(true)}>
        {t('admin.users.add')}
      </Button>
      {open && <UserFormDialog user={null} onClose={() => setOpen(false)} />}
    </>
  );
}
