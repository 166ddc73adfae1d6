import { z } from 'zod';
import { listResponseOf } from './common';
import { SprinklerListItemSchema } from './sprinklers';
import { UserSchema } from './users';

/*
 * The administrators' list of users with their machines. Apart from users.ts, whose schemas the
 * login page needs, so that a web page parsing a user does not also load every machine schema.
 */

export const UserWithSprinklersSchema = z.strictObject({
  user: UserSchema,
  sprinklers: z.array(SprinklerListItemSchema),
});
export type UserWithSprinklers = z.infer<typeof UserWithSprinklersSchema>;

export const UserListResponseSchema = listResponseOf(UserWithSprinklersSchema);
export type UserListResponse = z.infer<typeof UserListResponseSchema>;
