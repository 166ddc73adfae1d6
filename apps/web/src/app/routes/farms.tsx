import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { paths } from '@/config/paths';
import { useFarm } from '@/features/farms/api/get-farm';
import { FarmForbidden } from '@/features/farms/components/farm-forbidden';
import { FarmView } from '@/features/farms/components/farm-view';
import { FarmsTable } from '@/features/farms/components/farms-table';
import { DealersPanel } from '@/features/farms/components/dealers-panel';
import { NewFarmForm } from '@/features/farms/components/new-farm-form';
import { useUser } from '@/lib/session';
import { ButtonLink } from '@/ui/button';
import { Card } from '@/ui/card';
import { RainLoader } from '@/ui/global-loader';
import { useAppNavigate } from '@/ui/link';
import { Page } from '@/ui/page';
import { StatusPage } from '../layout/error-page';

/**
 * The farms the user belongs to (docs/roles.md); the server's administrator also creates one here,
 * and the dealers, with their members.
 */
export function FarmsRoute() {
  const { t } = useTranslation();
  const user = useUser();
  if (!user) return null;
  return (
    <Page title={t('farms.title')} description={t('farms.description')}>
      <div className={user.admin ? 'grid items-start gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]' : ''}>
        <FarmsTable />
        {user.admin && (
          <div className="flex flex-col gap-6">
            <NewFarmForm />
            <DealersPanel />
          </div>
        )}
      </div>
    </Page>
  );
}

/** A positive whole number from the address, or null (the farm's page then is not found). */
function farmIdOf(text: string | undefined): number | null {
  const id = Number(text);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/**
 * One farm: for its owners and managers (and the server's administrator) its members, their roles
 * and grants, and its machines; for a member who is no manager, why they may not see it (403);
 * for a farm that does not exist, or that the user does not belong to, the page not found.
 */
export function FarmRoute() {
  const farmId = farmIdOf(useParams().farmId);
  if (farmId === null) return <StatusPage status={404} />;
  return <Farm key={farmId} farmId={farmId} />;
}

function Farm({ farmId }: { farmId: number }) {
  const { t } = useTranslation();
  const user = useUser();
  const navigate = useAppNavigate();
  const { data: answer, isPending } = useFarm(farmId);
  const toList = () => navigate(paths.farms.link());

  if (!user) return null;
  if (isPending) return <RainLoader />;
  if (!answer) {
    return (
      <Page title={t('farms.detail.title')}>
        <Card className="flex flex-col items-start gap-4">
          <p>{t('farms.detail.loadFailed')}</p>
          <ButtonLink to={paths.farms.link()} variant="secondary">
            {t('farms.backToList')}
          </ButtonLink>
        </Card>
      </Page>
    );
  }
  if (answer.kind === 'notFound') return <StatusPage status={404} />;
  if (answer.kind === 'forbidden') return <FarmForbidden farmId={farmId} viewerId={user.id} onLeft={toList} />;
  return <FarmView detail={answer.detail} viewer={user} onLeft={toList} />;
}
