import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/ui/button';
import { PlusIcon } from '@/ui/other-icons';
import { AddSprinklerDialog } from './add-sprinkler-dialog';
import { RegisterDeviceFlow } from './register-device-flow';

/** The add form, or the controller's registration it leads to, each with the machine ID typed so far. */
type Step = { form: 'add' | 'register'; internalId: string } | null;

/**
 * Opens the form that adds a machine by its broker ID. From there the controller can be
 * registered first; the add form comes back afterwards with the registered ID filled in.
 */
export function AddSprinklerButton() {
  const { t } = useTranslation();
  const [step, setStep] = useState<Step>(null);
  return (
    <>
      <Button icon={<PlusIcon className="size-4" />} onClick={() => setStep({ form: 'add', internalId: '' })}>
        {t('admin.sprinklers.add')}
      </Button>
      {step?.form === 'add' && (
        <AddSprinklerDialog
          initialInternalId={step.internalId}
          onRegisterController={(internalId) => setStep({ form: 'register', internalId })}
          onClose={() => setStep(null)}
        />
      )}
      {step?.form === 'register' && (
        <RegisterDeviceFlow
          initialMachineId={step.internalId}
          onClose={(registered) => setStep({ form: 'add', internalId: registered ?? step.internalId })}
        />
      )}
    </>
  );
}
