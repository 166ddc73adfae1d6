import { useTranslation } from 'react-i18next';
import { Navigate, useSearchParams } from 'react-router';
import { currentBrand } from '@/config/brands';
import { paths, safeRedirect } from '@/config/paths';
import { LoginForm } from '@/features/auth/components/login-form';
import { useLocalize } from '@/i18n/use-locale';
import { useSession } from '@/lib/session';
import { Page } from '@/ui/page';

export function LoginRoute() {
  const { t } = useTranslation();
  const session = useSession();
  const localize = useLocalize();
  const [searchParams] = useSearchParams();
  if (session.status === 'signed-in') {
    return <Navigate replace to={safeRedirect(searchParams.get('redirect')) ?? localize(paths.home.link())} />;
  }
  return (
    <Page title={t('login.title')} description={t('login.description', { brand: currentBrand.name })} width="narrow">
      <LoginForm />
    </Page>
  );
}
