import { sessionEndpoints, usersEndpoints } from '@pivot/contracts';

/**
 * The contract schemas the first screens (the login page, restoring a session, the language
 * switch) need only once an answer arrives or a form is sent. They, and zod with them, are
 * fetched then, through `loadSessionSchemas`, so the login page paints without them.
 */
export {
  EmailSchema,
  LoginBodySchema,
  LoginResponseSchema,
  PasswordCallErrorSchema,
  RefreshResponseSchema,
  UpdateSelfBodySchema,
  UserSchema,
} from '@pivot/contracts';

/** Their calls' declarations, which hold these schemas: fetched with them. */
export const loginEndpoint = sessionEndpoints.login;
export const profileEndpoint = usersEndpoints.profile;
export const updateSelfEndpoint = usersEndpoints.updateSelf;
