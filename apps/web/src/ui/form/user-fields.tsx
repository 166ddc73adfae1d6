import { CreateUserBodySchema, USER_FIELD_LIMITS, type User } from '@pivot/contracts';
import type { ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '@/config/locales';
import type { FieldError } from './field-frame';
import { SelectField } from './select-field';
import { TextField } from './text-field';

/** A user's details as their fields hold them; the names are those of the API's request bodies. */
export type UserDetails = {
  first_name: string;
  last_name: string;
  company: string;
  email: string;
  phone: string;
  language: Locale;
};

type TextName = Exclude<keyof UserDetails, 'language'>;
type CheckedName = Exclude<TextName, 'company'>;

const RULES = CreateUserBodySchema.shape;
const PROBLEMS = {
  first_name: 'form.required',
  last_name: 'form.required',
  email: 'form.invalidEmail',
  phone: 'form.invalidPhone',
} as const satisfies Record<CheckedName, string>;
const MAX_LENGTHS: Record<TextName, number> = {
  first_name: USER_FIELD_LIMITS.name,
  last_name: USER_FIELD_LIMITS.name,
  company: USER_FIELD_LIMITS.company,
  email: USER_FIELD_LIMITS.email,
  phone: USER_FIELD_LIMITS.phone,
};
/** What the browser may fill in from what it knows of the user at the keyboard. */
const OWN_AUTOCOMPLETE: Record<TextName, string> = {
  first_name: 'given-name',
  last_name: 'family-name',
  company: 'organization',
  email: 'email',
  phone: 'tel',
};

/** The fields of a user, or of a new one (null): '' where the user has no value. */
export function userDetailsOf(user: User | null): UserDetails {
  return {
    first_name: user?.first_name ?? '',
    last_name: user?.last_name ?? '',
    company: user?.company_name ?? '',
    email: user?.email ?? '',
    phone: user?.phone ?? '',
    language: user?.language ?? DEFAULT_LOCALE,
  };
}

function brokenFields(details: UserDetails): CheckedName[] {
  const names = Object.keys(PROBLEMS) as CheckedName[];
  return names.filter((name) => !RULES[name].safeParse(details[name]).success);
}

/** True when the details may be sent: each field keeps the contracts' rules. */
export function areAcceptableUserDetails(details: UserDetails): boolean {
  return brokenFields(details).length === 0;
}

export type UserFieldsProps = {
  value: UserDetails;
  onChange: (value: UserDetails) => void;
  /** Set once the user tried to submit: every broken rule shows from then on. */
  submitted: boolean;
  /** A problem the server found with the email (taken by another user). */
  emailError?: FieldError;
  /** `own`: the user's own details, which the browser may fill in; `other`: someone else's, never filled in. */
  whose: 'own' | 'other';
  languageLabel: string;
  autoFocus?: boolean;
};

/**
 * A user's names, email, phone, company and language, capped at the contracts' limits and
 * checked with their rules; the form around them lays them out (they suit a two-column grid).
 */
export function UserFields({
  value,
  onChange,
  submitted,
  emailError,
  whose,
  languageLabel,
  autoFocus,
}: UserFieldsProps) {
  const { t } = useTranslation();
  const broken = submitted ? brokenFields(value) : [];
  const problem = (name: CheckedName) => (broken.includes(name) ? t(PROBLEMS[name]) : undefined);
  const field = (name: TextName) => ({
    value: value[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) => onChange({ ...value, [name]: event.target.value }),
    autoComplete: whose === 'own' ? OWN_AUTOCOMPLETE[name] : 'off',
    maxLength: MAX_LENGTHS[name],
  });

  return (
    <>
      <TextField
        label={t('userFields.firstName')}
        required
        autoFocus={autoFocus}
        {...field('first_name')}
        error={problem('first_name')}
      />
      <TextField label={t('userFields.lastName')} required {...field('last_name')} error={problem('last_name')} />
      <TextField
        label={t('userFields.email')}
        type="email"
        inputMode="email"
        required
        {...field('email')}
        error={problem('email') ?? emailError}
      />
      <TextField label={t('userFields.phone')} type="tel" {...field('phone')} error={problem('phone')} />
      <TextField label={t('userFields.company')} {...field('company')} />
      <SelectField
        label={languageLabel}
        value={value.language}
        onChange={(event) => onChange({ ...value, language: event.target.value as Locale })}
        options={LOCALES.map((code) => ({ value: code, label: t(`language.${code}`) }))}
      />
    </>
  );
}
