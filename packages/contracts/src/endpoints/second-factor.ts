import { z } from 'zod';
import { IdParamsSchema } from '../common';
import { endpoint } from '../endpoint';
import {
  PasskeyRegisterBodySchema,
  PasskeyRegistrationOptionsSchema,
  PasskeySchema,
  PasskeySignInOptionsBodySchema,
  PasskeySignInOptionsSchema,
  RecoveryCodesSchema,
  SecondFactorConfirmBodySchema,
  SecondFactorPasswordBodySchema,
  SecondFactorSetupSchema,
  SecondFactorSignInBodySchema,
  SecondFactorStatusSchema,
} from '../second-factor';
import { MessageResponseSchema, SignedInSchema } from '../users';

/* Two-step sign-in (docs/two-factor.md): an authenticator app's code or a passkey after the password. */
const tag = 'second factor';

export const signIn = endpoint({
  method: 'POST',
  path: '/user/login/second-factor/',
  body: SecondFactorSignInBodySchema,
  answer: SignedInSchema,
  errors: ['second_factor_incorrect', 'passkey_rejected', 'second_factor_challenge_expired', 'rate_limited'],
  tag,
  summary: "Signs in with the login's challenge and an authenticator's code, a recovery code or a passkey's answer",
});

export const passkeySignInOptions = endpoint({
  method: 'POST',
  path: '/user/login/passkey/',
  body: PasskeySignInOptionsBodySchema,
  answer: PasskeySignInOptionsSchema,
  errors: ['second_factor_challenge_expired', 'passkey_not_found'],
  tag,
  summary: "What the browser's passkey prompt needs to answer the login's challenge (the account's passkeys)",
});

export const status = endpoint({
  method: 'GET',
  path: '/user/second-factor/',
  answer: SecondFactorStatusSchema,
  errors: [],
  tag,
  summary: "Whether the signed-in user's second factor is on, since when, and how many recovery codes are left",
});

export const setup = endpoint({
  method: 'POST',
  path: '/user/second-factor/setup/',
  body: SecondFactorPasswordBodySchema,
  answer: SecondFactorSetupSchema,
  errors: ['current_password_incorrect', 'second_factor_already_enabled', 'rate_limited'],
  tag,
  summary: 'A new secret for an authenticator app, in force once a code from it confirms it',
});

export const confirm = endpoint({
  method: 'POST',
  path: '/user/second-factor/',
  body: SecondFactorConfirmBodySchema,
  answer: RecoveryCodesSchema,
  errors: ['second_factor_incorrect', 'second_factor_not_started', 'rate_limited'],
  tag,
  summary: 'Turns the second factor on with a code from the app just set up; answers the recovery codes, once',
});

export const disable = endpoint({
  method: 'POST',
  path: '/user/second-factor/disable/',
  body: SecondFactorPasswordBodySchema,
  answer: MessageResponseSchema,
  errors: ['current_password_incorrect', 'second_factor_not_enabled', 'second_factor_required', 'rate_limited'],
  tag,
  summary: "Turns the signed-in user's second factor off, and forgets the browsers it remembered",
});

export const recoveryCodes = endpoint({
  method: 'POST',
  path: '/user/second-factor/recovery-codes/',
  body: SecondFactorPasswordBodySchema,
  answer: RecoveryCodesSchema,
  errors: ['current_password_incorrect', 'second_factor_not_enabled', 'rate_limited'],
  tag,
  summary: 'A new set of recovery codes; the ones before stop working',
});

export const reset = endpoint({
  method: 'DELETE',
  path: '/user/:id/second-factor/',
  params: IdParamsSchema,
  answer: MessageResponseSchema,
  errors: ['user_not_found', 'second_factor_not_enabled'],
  tag,
  summary: "Turns a person's second factor off when they lost it (administrators); they set it up again",
});

export const passkeys = endpoint({
  method: 'GET',
  path: '/user/passkeys/',
  answer: z.array(PasskeySchema),
  errors: [],
  tag,
  summary: "The signed-in user's passkeys: names, when added, when last used",
});

export const passkeyRegistrationOptions = endpoint({
  method: 'POST',
  path: '/user/passkeys/options/',
  body: SecondFactorPasswordBodySchema,
  answer: PasskeyRegistrationOptionsSchema,
  errors: ['current_password_incorrect', 'too_many_passkeys', 'rate_limited'],
  tag,
  summary: "What the browser's prompt needs to make a new passkey, for five minutes",
});

export const addPasskey = endpoint({
  method: 'POST',
  path: '/user/passkeys/',
  body: PasskeyRegisterBodySchema,
  answer: PasskeySchema,
  status: 201,
  errors: ['passkey_rejected', 'too_many_passkeys'],
  tag,
  summary: 'Keeps the passkey the browser made from the registration options, under the name given',
});

export const removePasskey = endpoint({
  method: 'DELETE',
  path: '/user/passkeys/:id/',
  params: IdParamsSchema,
  answer: MessageResponseSchema,
  errors: ['passkey_not_found', 'second_factor_required'],
  tag,
  summary: "Removes one of the signed-in user's passkeys",
});
