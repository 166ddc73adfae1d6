import { useTranslation } from 'react-i18next';
import { paths } from '@/config/paths';
import { FleetCards } from '@/features/dealers/components/fleet-cards';
import { ButtonLink } from '@/ui/button';
import { Page } from '@/ui/page';

/**
 * A dealer's fleet (docs/roles.md, "Dealers"): the farms granted to the user's dealers side by
 * side, each with its machines in all, online, moving and in alarm. The machines themselves are in
 * the machines' list, with the user's own.
 */
export function DealerRoute() {
  const { t } = useTranslation();
  return (
    <Page
      title={t('dealers.fleet.title')}
      description={t('dealers.fleet.description')}
      actions={
        <ButtonLink to={paths.sprinklers.link()} variant="secondary">
          {t('dealers.fleet.machines')}
        </ButtonLink>
      }
    >
      <FleetCards />
    </Page>
  );
}
