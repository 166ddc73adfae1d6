import { sessionEndpoints, usersEndpoints } from '@pivot/contracts';

/**
 * The contract schemas the login page, the language switch and a refusal's body need only once an
 * answer arrives or a form is sent. They, and zod with them, are fetched then, through
 * `loadSessionSchemas`, so the login page paints without them. (Restoring a session reads its
 * answers without them: lib/checked-later.ts.)
 */
export {
  EmailSchema,
  LoginBodySchema,
  LoginResponseSchema,
  PasswordCallErrorSchema,
  UpdateSelfBodySchema,
  UserSchema,
} from '@pivot/contracts';

/** Their calls' declarations, which hold these schemas: fetched with them. */
export const loginEndpoint = sessionEndpoints.login;
export const updateSelfEndpoint = usersEndpoints.updateSelf;
