import { useTranslation } from 'react-i18next';
import { SetPasswordForm } from '@/features/auth/components/set-password-form';
import { Page } from '@/ui/page';

/** The two mailed links differ only in their words: activating a new account, or resetting a password. */
function PasswordFromLink({ purpose }: { purpose: 'activation' | 'reset' }) {
  const { t } = useTranslation();
  return (
    <Page
      title={t(`setPassword.${purpose}.title`)}
      description={t(`setPassword.${purpose}.description`)}
      width="narrow"
    >
      <SetPasswordForm />
    </Page>
  );
}

export function ActivationRoute() {
  return <PasswordFromLink purpose="activation" />;
}

export function SetPasswordRoute() {
  return <PasswordFromLink purpose="reset" />;
}
