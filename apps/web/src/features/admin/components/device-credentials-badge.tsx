import type { Device } from '@pivot/contracts';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/ui/badge';

export type DeviceCredentialsBadgeProps = {
  /** The registered controllers: undefined while loading, null when they could not be read. */
  devices: ReadonlyMap<string, Device> | null | undefined;
  internalId: string;
};

/** Whether a machine's controller has credentials on the broker, so the missing ones stand out. */
export function DeviceCredentialsBadge({ devices, internalId }: DeviceCredentialsBadgeProps) {
  const { t } = useTranslation();
  if (!devices) return <span className="text-ink-muted">—</span>;
  const device = devices.get(internalId);
  if (!device) return <Badge tone="warning">{t('admin.sprinklers.credentials.missing')}</Badge>;
  if (!device.onBroker) return <Badge tone="warning">{t('admin.sprinklers.credentials.lost')}</Badge>;
  return <Badge tone="success">{t('admin.sprinklers.credentials.set')}</Badge>;
}
