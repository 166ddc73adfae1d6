import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/ui/button';
import { PlusIcon } from '@/ui/other-icons';
import { RegisterDeviceFlow } from './register-device-flow';

/** Opens the form that registers a machine's controller on the broker. */
export function RegisterDeviceButton() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" icon={<PlusIcon className="size-4" />} onClick={() => setOpen(true)}>
        {t('admin.devices.register')}
      </Button>
      {open && <RegisterDeviceFlow onClose={() => setOpen(false)} />}
    </>
  );
}
