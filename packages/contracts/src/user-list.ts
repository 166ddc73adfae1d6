import { z } from 'zod';
import { listResponseOf } from './common';
import { AccessLevelSchema, SprinklerListItemSchema } from './sprinklers';
import { UserSchema } from './users';

/*
 * The administrators' list of users with their machines. Apart from users.ts, whose schemas the
 * login page needs, so that a web page parsing a user does not also load every machine schema.
 */

/** A machine granted to a user, with the level of the grant. */
export const GrantedSprinklerSchema = SprinklerListItemSchema.extend({ level: AccessLevelSchema });
export type GrantedSprinkler = z.infer<typeof GrantedSprinklerSchema>;

export const UserWithSprinklersSchema = z.strictObject({
  user: UserSchema,
  sprinklers: z.array(GrantedSprinklerSchema),
});
export type UserWithSprinklers = z.infer<typeof UserWithSprinklersSchema>;

export const UserListResponseSchema = listResponseOf(UserWithSprinklersSchema);
export type UserListResponse = z.infer<typeof UserListResponseSchema>;
