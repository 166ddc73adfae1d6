import { useTranslation } from 'react-i18next';
import { ForgotForm } from '@/features/auth/components/forgot-form';
import { Page } from '@/ui/page';

export function ForgotRoute() {
  const { t } = useTranslation();
  return (
    <Page title={t('forgot.title')} description={t('forgot.description')} width="narrow">
      <ForgotForm />
    </Page>
  );
}
