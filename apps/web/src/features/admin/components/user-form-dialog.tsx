import type { User } from '@pivot/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateField } from '@/ui/date-picker/date-field';
import { FormDialog } from '@/ui/form-dialog';
import { CheckboxField } from '@/ui/form/checkbox-field';
import { type UserDetails, UserFields, areAcceptableUserDetails, userDetailsOf } from '@/ui/form/user-fields';
import { showToast } from '@/ui/toast/toast-store';
import { useCreateUser } from '../api/create-user';
import { useUpdateUser } from '../api/update-user';
import { fieldDateToIso, isoToFieldDate } from '../lib/expiry-date';

type UserValues = UserDetails & {
  admin: boolean;
  /** DD.MM.YYYY, or '' for a subscription without an end. */
  subscription_expiry_date: string;
};

function valuesOf(user: User | null): UserValues {
  return {
    ...userDetailsOf(user),
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
  const emailTaken =
    takenEmail !== null && takenEmail === values.email.trim().toLowerCase()
      ? t('admin.users.emailTaken.message')
      : undefined;

  const submit = async () => {
    setSubmitted(true);
    if (!areAcceptableUserDetails(values) || expiryDate === undefined) return;
    const body = { ...values, subscription_expiry_date: expiryDate };
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
      width="wide"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <UserFields
          value={values}
          onChange={(details) => setValues({ ...values, ...details })}
          submitted={submitted}
          emailError={emailTaken}
          whose="other"
          languageLabel={t('admin.users.form.language')}
          autoFocus
        />
        <DateField
          placement="above"
          label={t('admin.users.form.subscription')}
          hint={t('admin.users.form.subscriptionHint')}
          value={values.subscription_expiry_date}
          onChange={(value) => setValues({ ...values, subscription_expiry_date: value })}
          error={submitted && expiryDate === undefined ? t('admin.users.form.invalidDate') : undefined}
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
