import type { DeviceSecretResponse } from '@pivot/contracts';
import { useTranslation } from 'react-i18next';
import { confirmDialog } from '@/ui/dialog/dialogs';
import { showToast } from '@/ui/toast/toast-store';
import { useRemoveDevice } from '../api/remove-device';
import { useReplaceDeviceSecret } from '../api/replace-device-secret';

/** A controller's two actions, each after a confirmation, for they disconnect it. */
export function useDeviceActions() {
  const { t } = useTranslation();
  const replace = useReplaceDeviceSecret();
  const remove = useRemoveDevice();

  /** The controller with its new secret, or false when not confirmed or failed (its error is shown). */
  const newSecret = async (machineId: string): Promise<DeviceSecretResponse | false> => {
    const confirmed = await confirmDialog({
      title: t('admin.devices.newSecret.title', { id: machineId }),
      message: t('admin.devices.newSecret.message'),
      right: t('admin.devices.newSecret.confirm'),
      danger: true,
    });
    return confirmed && replace.run(machineId);
  };

  const removeCredentials = async (machineId: string): Promise<void> => {
    const confirmed = await confirmDialog({
      title: t('admin.devices.remove.title', { id: machineId }),
      message: t('admin.devices.remove.message'),
      right: t('admin.devices.remove.confirm'),
      danger: true,
    });
    if (!confirmed || !(await remove.run(machineId))) return;
    showToast({
      variant: 'success',
      title: t('admin.devices.remove.done'),
      message: t('admin.devices.remove.doneMessage', { id: machineId }),
    });
  };

  return { newSecret, removeCredentials, isPending: replace.isPending || remove.isPending };
}
