import { IdParamsSchema } from '../common';
import { endpoint } from '../endpoint';
import {
  ChangePasswordBodySchema,
  CreateUserBodySchema,
  MessageResponseSchema,
  UpdateSelfBodySchema,
  UpdateUserBodySchema,
  UserSchema,
} from '../users';

/* The signed-in user's own account, and the administrators' calls about any user. */
const tag = 'users';

export const profile = endpoint({
  method: 'GET',
  path: '/user/',
  answer: UserSchema,
  errors: [],
  tag,
  summary: "The signed-in user's own account",
});

export const updateSelf = endpoint({
  method: 'PATCH',
  path: '/user/',
  body: UpdateSelfBodySchema,
  answer: UserSchema,
  errors: ['current_password_required', 'current_password_incorrect', 'email_taken', 'rate_limited'],
  tag,
  summary: "Changes the signed-in user's own data (a new email takes the current password)",
});

export const deleteSelf = endpoint({
  method: 'DELETE',
  path: '/user/',
  answer: MessageResponseSchema,
  errors: ['last_admin'],
  tag,
  summary: "Deletes the signed-in user's own account and ends its sessions",
});

export const changePassword = endpoint({
  method: 'POST',
  path: '/user/password/',
  body: ChangePasswordBodySchema,
  answer: MessageResponseSchema,
  errors: ['password_rejected', 'rate_limited'],
  tag,
  summary: "Changes the signed-in user's password and ends their other sessions",
});

export const create = endpoint({
  method: 'POST',
  path: '/user/',
  body: CreateUserBodySchema,
  answer: UserSchema,
  status: 201,
  errors: ['email_taken'],
  tag,
  summary: 'Creates a user, who is emailed a link to activate the account (administrators)',
});

export const update = endpoint({
  method: 'PATCH',
  path: '/user/:id/',
  params: IdParamsSchema,
  body: UpdateUserBodySchema,
  answer: UserSchema,
  errors: ['user_not_found', 'email_taken', 'last_admin', 'current_password_required', 'current_password_incorrect'],
  tag,
  summary: 'Changes a user (administrators); the last administrator keeps the admin flag',
});

export const remove = endpoint({
  method: 'DELETE',
  path: '/user/:id/',
  params: IdParamsSchema,
  answer: MessageResponseSchema,
  errors: ['user_not_found', 'last_admin'],
  tag,
  summary: 'Deletes a user with their sessions and grants (administrators)',
});
