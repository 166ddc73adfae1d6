import { UpdateSelfBodySchema, type User } from '@pivot/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LOCALES, type Locale } from '@/config/locales';
import { useLocale } from '@/i18n/use-locale';
import { useSwitchLocale } from '@/i18n/use-switch-locale';
import { Button } from '@/ui/button';
import { Card } from '@/ui/card';
import { SelectField } from '@/ui/form/select-field';
import { TextField } from '@/ui/form/text-field';
import { showToast } from '@/ui/toast/toast-store';
import { useUpdateAccount } from '../api/update-account';

type AccountValues = {
  first_name: string;
  last_name: string;
  company: string;
  email: string;
  phone: string;
  language: Locale;
};

const fieldSchemas = UpdateSelfBodySchema.shape;

function valuesOf(user: User): AccountValues {
  return {
    first_name: user.first_name,
    last_name: user.last_name,
    company: user.company_name ?? '',
    email: user.email,
    phone: user.phone ?? '',
    language: user.language,
  };
}

/** The user's own data; a changed language also switches the interface to it. */
export function AccountForm({ user }: { user: User }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const switchLocale = useSwitchLocale();
  const update = useUpdateAccount();
  const [values, setValues] = useState(() => valuesOf(user));
  const [submitted, setSubmitted] = useState(false);

  const errors = {
    first_name: fieldSchemas.first_name.safeParse(values.first_name).success ? undefined : t('form.required'),
    last_name: fieldSchemas.last_name.safeParse(values.last_name).success ? undefined : t('form.required'),
    email: fieldSchemas.email.safeParse(values.email).success ? undefined : t('form.invalidEmail'),
    phone: fieldSchemas.phone.safeParse(values.phone).success ? undefined : t('form.invalidPhone'),
  };
  const shown = (error: string | undefined) => (submitted ? error : undefined);
  const field = (name: Exclude<keyof AccountValues, 'language'>) => ({
    value: values[name],
    onChange: (event: { target: { value: string } }) => setValues({ ...values, [name]: event.target.value }),
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (Object.values(errors).some(Boolean)) return;
    const saved = await update.run(values);
    if (!saved) return;
    setValues(valuesOf(saved));
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
        <TextField
          label={t('account.details.firstName')}
          autoComplete="given-name"
          maxLength={100}
          required
          {...field('first_name')}
          error={shown(errors.first_name)}
        />
        <TextField
          label={t('account.details.lastName')}
          autoComplete="family-name"
          maxLength={100}
          required
          {...field('last_name')}
          error={shown(errors.last_name)}
        />
        <TextField label={t('account.details.company')} autoComplete="organization" {...field('company')} />
        <TextField
          label={t('account.details.email')}
          type="email"
          autoComplete="email"
          inputMode="email"
          required
          {...field('email')}
          error={shown(errors.email)}
        />
        <TextField
          label={t('account.details.phone')}
          type="tel"
          autoComplete="tel"
          {...field('phone')}
          error={shown(errors.phone)}
        />
        <SelectField
          label={t('account.details.language')}
          value={values.language}
          onChange={(event) => setValues({ ...values, language: event.target.value as Locale })}
          options={LOCALES.map((code) => ({ value: code, label: t(`language.${code}`) }))}
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
