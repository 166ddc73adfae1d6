import type { FarmRole } from '@pivot/contracts';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/ui/badge';

const TONES = { owner: 'success', manager: 'water', member: 'muted' } as const;

/** A person's role in a farm, as a short mark; the server's administrator outside it says so. */
export function RoleBadge({ role }: { role: FarmRole | null }) {
  const { t } = useTranslation();
  if (!role) return <Badge tone="warning">{t('farms.operator')}</Badge>;
  return <Badge tone={TONES[role]}>{t(`farms.roles.${role}`)}</Badge>;
}
