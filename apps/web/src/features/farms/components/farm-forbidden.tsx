import { useTranslation } from 'react-i18next';
import { paths } from '@/config/paths';
import { Button, ButtonLink } from '@/ui/button';
import { Card } from '@/ui/card';
import { LogoutIcon, ShieldIcon } from '@/ui/other-icons';
import { Page } from '@/ui/page';
import { useFarms } from '../api/get-farms';
import { useMemberActions } from '../hooks/use-member-actions';

/**
 * What a farm's member (not a manager) sees at the farm's address: the server refuses them its
 * members and grants (403), so the page says why, leads to the machines granted to them, and
 * lets them leave the farm.
 */
export function FarmForbidden({ farmId, viewerId, onLeft }: { farmId: number; viewerId: number; onLeft: () => void }) {
  const { t } = useTranslation();
  const { data: farms } = useFarms();
  const farm = farms ? farms.find((listed) => listed.id === farmId) : undefined;
  const actions = useMemberActions({ id: farmId, name: farm?.name ?? '' }, viewerId);
  const leave = async () => {
    if (await actions.leaveFarm()) onLeft();
  };
  return (
    <Page title={farm?.name ?? t('farms.detail.title')} width="narrow">
      <Card className="flex flex-col items-start gap-4">
        <ShieldIcon className="size-10 text-warning" />
        <h2 className="text-xl font-semibold">{t('farms.forbidden.title')}</h2>
        <p>{t('farms.forbidden.message')}</p>
        <div className="flex flex-wrap gap-2">
          <ButtonLink to={paths.sprinklers.link()}>{t('farms.forbidden.machines')}</ButtonLink>
          <ButtonLink to={paths.farms.link()} variant="secondary">
            {t('farms.backToList')}
          </ButtonLink>
          {farm && (
            <Button
              variant="secondary"
              icon={<LogoutIcon className="size-4" />}
              disabled={actions.isPending}
              onClick={() => void leave()}
            >
              {t('farms.leave.action')}
            </Button>
          )}
        </div>
      </Card>
    </Page>
  );
}
