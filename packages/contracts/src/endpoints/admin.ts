import { IdParamsSchema } from '../common';
import { endpoint } from '../endpoint';
import {
  PermissionsBodySchema,
  SprinklerAdminListQuerySchema,
  SprinklerAdminListResponseSchema,
  SprinklerWithUsersSchema,
} from '../sprinklers';
import { UserListResponseSchema } from '../user-list';
import { UserListQuerySchema } from '../users';

/* The administrators' lists across users and machines, and granting access. */

export const users = endpoint({
  method: 'GET',
  path: '/user/list/',
  query: UserListQuerySchema,
  answer: UserListResponseSchema,
  errors: [],
  tag: 'users',
  summary: 'One page of users with the machines each may use (administrators)',
});

export const sprinklers = endpoint({
  method: 'GET',
  path: '/sprinkler/list/',
  query: SprinklerAdminListQuerySchema,
  answer: SprinklerAdminListResponseSchema,
  errors: [],
  tag: 'sprinklers',
  summary: 'One page of all machines with the users granted each (administrators)',
});

export const changePermissions = endpoint({
  method: 'PATCH',
  path: '/sprinkler/:id/permissions/',
  params: IdParamsSchema,
  body: PermissionsBodySchema,
  answer: SprinklerWithUsersSchema,
  errors: ['not_found', 'sprinkler_not_found', 'forbidden', 'access_not_granted'],
  tag: 'sprinklers',
  summary:
    "Grants a user access to a machine (watch or control), or revokes it (administrators; the people who run the machine's farm, to its members)",
});
