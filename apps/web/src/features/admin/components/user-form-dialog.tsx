import { CreateUserBodySchema, type User } from '@pivot/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LOCALES, type Locale } from '@/config/locales';
import { CheckboxField } from '@/ui/form/checkbox-field';
import { SelectField } from '@/ui/form/select-field';
import { TextField } from '@/ui/form/text-field';
import { showToast } from '@/ui/toast/toast-store';
import { useCreateUser } from '../api/create-user';
import { DateField } from '@/ui/date-picker/date-field';
import { fieldDateToIso, isoToFieldDate } from '../lib/expiry-date';
import { useUpdateUser } from '../api/update-user';
import { FormDialog } from './form-dialog';

type UserValues = {
  first_name: string;
  last_name: string;
  company: string;
  email: string;
  phone: string;
  language: Locale;
  admin: boolean;
  /** DD.MM.YYYY, or '' for a subscription without an end. */
  subscription_expiry_date: string;
};

type TextName = 'first_name' | 'last_name' | 'company' | 'email' | 'phone';

const fieldSchemas = CreateUserBodySchema.shape;

function valuesOf(user: User | null): UserValues {
  return {
    first_name: user?.first_name ?? '',
    last_name: user?.last_name ?? '',
    company: user?.company_name ?? '',
    email: user?.email ?? '',
    phone: user?.phone ?? '',
    language: user?.language ?? 'pl',
    admin: user?.admin ?? false,
    subscription_expiry_date: isoToFieldDate(user?.subscription.expiry_date ?? null),
  };
}

export type UserFormDialogProps = {
  /** The user to edit; null adds a new one. */
  user: User | null;
  onClose: () => void;
};

/** Adding a user (the server mails the activation link) or editing one: the same fields. */
export function UserFormDialog({ user, onClose }: UserFormDialogProps) {
  const { t } = useTranslation();
  const create = useCreateUser();
  const update = useUpdateUser();
  const [values, setValues] = useState(() => valuesOf(user));
  const [submitted, setSubmitted] = useState(false);
  const [takenEmail, setTakenEmail] = useState<string | null>(null);

  const expiryDate = fieldDateToIso(values.subscription_expiry_date);
  const valid = (name: keyof typeof fieldSchemas, value: unknown) => fieldSchemas[name].safeParse(value).success;
  const errors = {
    first_name: valid('first_name', values.first_name) ? undefined : t('form.required'),
    last_name: valid('last_name', values.last_name) ? undefined : t('form.required'),
    email: valid('email', values.email) ? undefined : t('form.invalidEmail'),
    phone: valid('phone', values.phone) ? undefined : t('form.invalidPhone'),
    subscription_expiry_date: expiryDate === undefined ? t('admin.users.form.invalidDate') : undefined,
  };
  const shown = (error: string | undefined) => (submitted ? error : undefined);
  const emailTaken =
    takenEmail !== null && takenEmail === values.email.trim().toLowerCase()
      ? t('admin.users.emailTaken.message')
      : undefined;
  const field = (name: TextName) => ({
    value: values[name],
    onChange: (event: { target: { value: string } }) => setValues({ ...values, [name]: event.target.value }),
  });

  const submit = async () => {
    setSubmitted(true);
    if (Object.values(errors).some(Boolean)) return;
    const body = { ...values, subscription_expiry_date: expiryDate ?? null };
    const result = user ? await update.run(user.id, body) : await create.run(body);
    if (!result.ok) {
      if (result.emailTaken) setTakenEmail(values.email.trim().toLowerCase());
      return;
    }
    showToast(
      user
        ? { variant: 'success', title: t('admin.users.saved') }
        : {
            variant: 'success',
            title: t('admin.users.created.title'),
            message: t('admin.users.created.message', { email: result.user.email }),
          },
    );
    onClose();
  };

  return (
    <FormDialog
      title={
        user
          ? t('admin.users.form.editTitle', { name: `${user.first_name} ${user.last_name}` })
          : t('admin.users.form.addTitle')
      }
      description={user ? undefined : t('admin.users.form.activationHint')}
      submitLabel={user ? t('admin.users.form.save') : t('admin.users.form.create')}
      onSubmit={submit}
      onClose={onClose}
      pending={create.isPending || update.isPending}
      wide
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label={t('admin.users.form.firstName')}
          autoComplete="off"
          maxLength={100}
          required
          autoFocus
          {...field('first_name')}
          error={shown(errors.first_name)}
        />
        <TextField
          label={t('admin.users.form.lastName')}
          autoComplete="off"
          maxLength={100}
          required
          {...field('last_name')}
          error={shown(errors.last_name)}
        />
        <TextField
          label={t('admin.users.form.email')}
          type="email"
          inputMode="email"
          autoComplete="off"
          maxLength={254}
          required
          {...field('email')}
          error={shown(errors.email) ?? emailTaken}
        />
        <TextField
          label={t('admin.users.form.phone')}
          type="tel"
          autoComplete="off"
          maxLength={32}
          {...field('phone')}
          error={shown(errors.phone)}
        />
        <TextField label={t('admin.users.form.company')} autoComplete="off" maxLength={200} {...field('company')} />
        <SelectField
          label={t('admin.users.form.language')}
          value={values.language}
          onChange={(event) => setValues({ ...values, language: event.target.value as Locale })}
          options={LOCALES.map((code) => ({ value: code, label: t(`language.${code}`) }))}
        />
        <DateField
          placement="above"
          label={t('admin.users.form.subscription')}
          hint={t('admin.users.form.subscriptionHint')}
          value={values.subscription_expiry_date}
          onChange={(value) => setValues({ ...values, subscription_expiry_date: value })}
          error={shown(errors.subscription_expiry_date)}
        />
        <div className="sm:self-center">
          <CheckboxField
            label={t('admin.users.form.admin')}
            checked={values.admin}
            onChange={(event) => setValues({ ...values, admin: event.target.checked })}
          />
        </div>
      </div>
    </FormDialog>
  );
}
