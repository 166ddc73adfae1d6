import { useTranslation } from 'react-i18next';
import { paths } from '@/config/paths';
import { ButtonLink } from '@/ui/button';
import { Card } from '@/ui/card';
import { Page } from '@/ui/page';

/** What a screen shows when it cannot be found (404) or has failed (500). */
export function StatusPage({ status }: { status: 404 | 500 }) {
  const { t } = useTranslation();
  const text = status === 404 ? 'notFound' : 'serverError';
  return (
    <Page title={t(`errorPage.${text}.title`)} width="narrow">
      <Card className="flex flex-col items-start gap-4">
        <p className="text-5xl font-bold text-water" aria-hidden="true">
          {status}
        </p>
        <p>{t(`errorPage.${text}.message`)}</p>
        <ButtonLink to={paths.home.link()}>{t('common.backHome')}</ButtonLink>
      </Card>
    </Page>
  );
}
