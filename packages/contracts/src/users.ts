import { z } from 'zod';
import { IdSchema, IdTextSchema, IsoDateSchema, LanguageSchema, PagingQuerySchema, SortOrderSchema } from './common';
import { PasswordInputSchema } from './passwords';

/** The longest each user field may be, in characters: the forms cap their fields at these. */
export const USER_FIELD_LIMITS = { name: 100, company: 200, email: 254, phone: 32 } as const;

/** A person's first or last name. */
export const PersonNameSchema = z.string().trim().min(1).max(USER_FIELD_LIMITS.name);
/** Optional text fields: a form's empty field means "none". */
function emptyAsNull<T extends z.ZodType<string | null>>(schema: T) {
  return z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? null : value), schema);
}

const CompanySchema = emptyAsNull(z.string().trim().max(USER_FIELD_LIMITS.company).nullable());
const PhoneSchema = emptyAsNull(
  z
    .string()
    .trim()
    .max(USER_FIELD_LIMITS.phone)
    .regex(/^[+\d][\d\s()-]*$/, 'Expected a phone number such as +48 600 100 200')
    .nullable(),
);

/** Emails are compared without regard to case or surrounding spaces. */
export const EmailSchema = z.string().trim().toLowerCase().pipe(z.email().max(USER_FIELD_LIMITS.email));

export const SubscriptionSchema = z.strictObject({
  /** False once the expiry date has passed. */
  active: z.boolean(),
  /** The last day of the subscription (YYYY-MM-DD); null means it does not expire. */
  expiry_date: IsoDateSchema.nullable(),
});
export type Subscription = z.infer<typeof SubscriptionSchema>;

export const UserSchema = z.strictObject({
  id: IdSchema,
  first_name: z.string(),
  last_name: z.string(),
  company_name: z.string().nullable(),
  email: z.string(),
  phone: z.string().nullable(),
  subscription: SubscriptionSchema,
  admin: z.boolean(),
  language: LanguageSchema,
  /** False until the user has set a password from the activation mail. */
  activated: z.boolean(),
});
export type User = z.infer<typeof UserSchema>;

/** Initials for the round account button: first letters of first and last name, upper-cased. */
export function userInitials(user: Pick<User, 'first_name' | 'last_name'>): string {
  const first = [...user.first_name.trim()][0] ?? '';
  const last = [...user.last_name.trim()][0] ?? '';
  return `${first}${last}`.toUpperCase();
}

/** docs/product.md#entities: requests name the company `company`; answers name it `company_name`. */
export const CreateUserBodySchema = z.strictObject({
  first_name: PersonNameSchema,
  last_name: PersonNameSchema,
  company: CompanySchema.default(null),
  email: EmailSchema,
  phone: PhoneSchema.default(null),
  admin: z.boolean().default(false),
  language: LanguageSchema.default('pl'),
  subscription_expiry_date: IsoDateSchema.nullable().default(null),
});
export type CreateUserBody = z.infer<typeof CreateUserBodySchema>;

/** What users may change about themselves. */
export const UpdateSelfBodySchema = z.strictObject({
  first_name: PersonNameSchema.optional(),
  last_name: PersonNameSchema.optional(),
  company: CompanySchema.optional(),
  email: EmailSchema.optional(),
  phone: PhoneSchema.optional(),
  language: LanguageSchema.optional(),
  /** The signed-in user's current password: needed when they change their own email, ignored otherwise. */
  current_password: PasswordInputSchema.optional(),
});
export type UpdateSelfBody = z.infer<typeof UpdateSelfBodySchema>;

/** What an administrator may change about any user. */
export const UpdateUserBodySchema = UpdateSelfBodySchema.extend({
  admin: z.boolean().optional(),
  subscription_expiry_date: IsoDateSchema.nullable().optional(),
});
export type UpdateUserBody = z.infer<typeof UpdateUserBodySchema>;

export const ChangePasswordBodySchema = z.strictObject({
  oldPassword: PasswordInputSchema,
  newPassword: PasswordInputSchema,
  repeatNewPassword: PasswordInputSchema,
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBodySchema>;

export const LoginBodySchema = z.strictObject({
  email: EmailSchema,
  password: PasswordInputSchema,
  remember: z.boolean().default(false),
});
export type LoginBody = z.infer<typeof LoginBodySchema>;

/** Signed in: the user and an access token (the refresh cookie is set beside). */
export const SignedInSchema = z.strictObject({ user: UserSchema, access: z.string().min(1) });
export type SignedInAnswer = z.infer<typeof SignedInSchema>;

/**
 * A right password on an account with a second factor (docs/two-factor.md), from a browser it
 * does not remember: the authenticator's code, or a recovery code, is asked for next.
 */
/** A second factor a sign-in's challenge can be answered with: the app's code (or a recovery code), or a passkey. */
export const SecondFactorMethodSchema = z.enum(['code', 'passkey']);
export type SecondFactorMethod = z.infer<typeof SecondFactorMethodSchema>;

export const SecondFactorChallengeSchema = z.strictObject({
  secondFactor: z.strictObject({
    /** Sent back with the code (POST /user/login/second-factor/) within `expiresInSeconds`; single-use. */
    challenge: z.string().min(1),
    expiresInSeconds: z.number().int().positive(),
    /** What the account can answer with: the app's code (and recovery codes), a passkey, or both. */
    methods: z.array(SecondFactorMethodSchema).min(1),
  }),
});
export type SecondFactorChallenge = z.infer<typeof SecondFactorChallengeSchema>;

export const LoginResponseSchema = z.union([SignedInSchema, SecondFactorChallengeSchema]);
export type LoginResponse = z.infer<typeof LoginResponseSchema>;

export const RefreshResponseSchema = z.strictObject({ access: z.string().min(1) });
export type RefreshResponse = z.infer<typeof RefreshResponseSchema>;

/** Sets a password from an emailed link: /activation/{uid}/{token} or /set-password/{uid}/{token}. */
export const SetPasswordBodySchema = z.strictObject({
  uid: IdSchema,
  token: z.string().min(1).max(200),
  newPassword: PasswordInputSchema,
  repeatNewPassword: PasswordInputSchema,
});
export type SetPasswordBody = z.infer<typeof SetPasswordBodySchema>;

export const PasswordEmailBodySchema = z.strictObject({ email: EmailSchema });
export type PasswordEmailBody = z.infer<typeof PasswordEmailBodySchema>;

/** A short confirmation for calls whose spec answer is not shown. */
export const MessageResponseSchema = z.strictObject({ message: z.string() });
export type MessageResponse = z.infer<typeof MessageResponseSchema>;

export const USER_SORT_FIELDS = [
  'id',
  'first_name',
  'last_name',
  'email',
  'company_name',
  'admin',
  'subscription',
] as const;

export const UserListQuerySchema = PagingQuerySchema.extend({
  /** Case-insensitive search in names, email, company and phone. */
  search: z.string().trim().max(100).optional(),
  sort: z.enum(USER_SORT_FIELDS).default('id'),
  order: SortOrderSchema.default('asc'),
  /** Leaves out the users who already have access to this machine. */
  exclude: IdTextSchema.optional(),
});
export type UserListQuery = z.infer<typeof UserListQuerySchema>;
