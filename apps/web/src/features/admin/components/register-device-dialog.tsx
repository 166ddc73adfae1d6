import { type DeviceSecretResponse, RegisterDeviceBodySchema } from '@pivot/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckboxField } from '@/ui/form/checkbox-field';
import { FormDialog } from '@/ui/form-dialog';
import { type RefusedDeviceId, useRegisterDevice } from '../api/register-device';
import { MachineIdField } from './machine-id-field';

const machineIdSchema = RegisterDeviceBodySchema.shape.machineId;

export type RegisterDeviceDialogProps = {
  initialMachineId?: string;
  /** Gets the controller with its secret, to be shown once. */
  onRegistered: (created: DeviceSecretResponse) => void;
  onClose: () => void;
};

/**
 * Asks for the ID of the machine whose controller is registered, checked as the server checks
 * it. A taken or reserved ID keeps the form open with its message on the field; an ID that names
 * an account of the broker's own (the operator's) also offers to take that account over.
 */
export function RegisterDeviceDialog({ initialMachineId = '', onRegistered, onClose }: RegisterDeviceDialogProps) {
  const { t } = useTranslation();
  const register = useRegisterDevice();
  const [machineId, setMachineId] = useState(initialMachineId);
  const [submitted, setSubmitted] = useState(false);
  const [refused, setRefused] = useState<{ machineId: string; why: RefusedDeviceId } | null>(null);
  const [adopt, setAdopt] = useState(false);
  const trimmed = machineId.trim();
  const foreign = refused?.why === 'device_account_foreign' && trimmed === refused.machineId;

  const idError = (() => {
    if (trimmed === '') return t('form.required');
    if (!machineIdSchema.safeParse(trimmed).success) return t('admin.devices.registerForm.invalidId');
    if (trimmed !== refused?.machineId || (foreign && adopt)) return undefined;
    return t(`errorCodes.${refused.why}.message`);
  })();

  const submit = async () => {
    setSubmitted(true);
    if (idError) return;
    const result = await register.run({
      machineId: trimmed,
      ...(foreign && adopt ? { adoptBrokerAccount: true } : {}),
    });
    if (result.ok) onRegistered(result.created);
    else if (result.refusedId) setRefused({ machineId: trimmed, why: result.refusedId });
  };

  return (
    <FormDialog
      title={t('admin.devices.registerForm.title')}
      description={t('admin.devices.registerForm.description')}
      submitLabel={t('admin.devices.registerForm.submit')}
      pendingLabel={t('admin.devices.registerForm.pending')}
      onSubmit={submit}
      onClose={onClose}
      pending={register.isPending}
    >
      <MachineIdField
        label={t('admin.devices.registerForm.machineId')}
        hint={t('admin.devices.registerForm.machineIdHint')}
        value={machineId}
        onChange={(event) => setMachineId(event.target.value)}
        error={submitted ? idError : undefined}
        className="font-mono"
      />
      {foreign && (
        <CheckboxField
          label={t('admin.devices.registerForm.adoptBrokerAccount', { id: trimmed })}
          checked={adopt}
          onChange={(event) => setAdopt(event.target.checked)}
        />
      )}
    </FormDialog>
  );
}
