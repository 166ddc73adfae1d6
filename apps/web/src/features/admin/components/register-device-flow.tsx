import type { DeviceSecretResponse } from '@pivot/contracts';
import { useState } from 'react';
import { DeviceSecretDialog } from './device-secret-dialog';
import { RegisterDeviceDialog } from './register-device-dialog';

export type RegisterDeviceFlowProps = {
  initialMachineId?: string;
  /** The flow ended: with the ID registered, or without one when the form was cancelled. */
  onClose: (registeredMachineId?: string) => void;
};

/** Registering a controller: the form, then its secret shown once; unmounting forgets the secret. */
export function RegisterDeviceFlow({ initialMachineId, onClose }: RegisterDeviceFlowProps) {
  const [created, setCreated] = useState<DeviceSecretResponse | null>(null);
  if (created) {
    return (
      <DeviceSecretDialog
        machineId={created.device.machineId}
        secret={created.secret}
        reason="registered"
        onClose={() => onClose(created.device.machineId)}
      />
    );
  }
  return (
    <RegisterDeviceDialog initialMachineId={initialMachineId} onRegistered={setCreated} onClose={() => onClose()} />
  );
}
