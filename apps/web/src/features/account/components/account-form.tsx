import type { User } from '@pivot/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '@/i18n/use-locale';
import { useSwitchLocale } from '@/i18n/use-switch-locale';
import { Button } from '@/ui/button';
import { Card } from '@/ui/card';
import { UserFields, areAcceptableUserDetails, userDetailsOf } from '@/ui/form/user-fields';
import { showToast } from '@/ui/toast/toast-store';
import { useUpdateAccount } from '../api/update-account';

/** The user's own data; a changed language also switches the interface to it. */
export function AccountForm({ user }: { user: User }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const switchLocale = useSwitchLocale();
  const update = useUpdateAccount();
  const [values, setValues] = useState(() => userDetailsOf(user));
  const [submitted, setSubmitted] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (!areAcceptableUserDetails(values)) return;
    const saved = await update.run(values);
    if (!saved) return;
    setValues(userDetailsOf(saved));
    setSubmitted(false);
    showToast({ variant: 'success', title: t('account.details.saved') });
    if (saved.language !== locale) await switchLocale(saved.language);
  };

  return (
    <Card aria-labelledby="account-details">
      <h2 id="account-details" className="mb-4 text-lg font-semibold">
        {t('account.details.title')}
      </h2>
      <form noValidate onSubmit={submit} className="grid gap-4 sm:grid-cols-2">
        <UserFields
          value={values}
          onChange={setValues}
          submitted={submitted}
          whose="own"
          languageLabel={t('account.details.language')}
        />
        <div className="sm:col-span-2">
          <Button type="submit" disabled={update.isPending}>
            {t('account.details.save')}
          </Button>
        </div>
      </form>
    </Card>
  );
}
