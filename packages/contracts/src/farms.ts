import { z } from 'zod';
import { IdSchema, IdTextSchema } from './common';
import { AccessLevelSchema } from './sprinklers';
import { PasswordInputSchema } from './passwords';
import { EmailSchema, PersonNameSchema } from './users';

/**
 * A person's role in a farm (docs/roles.md): an *owner* and a *manager* run the farm (its
 * members, their grants, its machines' names and settings) and control every machine of it; a
 * *member* uses the machines granted to them, at their grant's level. Only an owner makes or
 * unmakes owners, and a farm always keeps one.
 */
export const FARM_ROLES = ['owner', 'manager', 'member'] as const;
export const FarmRoleSchema = z.enum(FARM_ROLES);
export type FarmRole = z.infer<typeof FarmRoleSchema>;

/** The roles that run a farm. */
export const MANAGING_ROLES: readonly FarmRole[] = ['owner', 'manager'];

/** The longest name a farm may have, in characters. */
export const FARM_NAME_MAX = 100;

export const FarmSchema = z.strictObject({
  id: IdSchema,
  name: z.string(),
  /** The caller's role in the farm; null for the server's administrator who is not a member. */
  role: FarmRoleSchema.nullable(),
  /** Its owners require two-step sign-in of every member (docs/two-factor.md). */
  requireSecondFactor: z.boolean(),
  machineCount: z.number().int().nonnegative(),
  memberCount: z.number().int().nonnegative(),
});
export type Farm = z.infer<typeof FarmSchema>;

export const FarmListSchema = z.array(FarmSchema);

/**
 * A farm the machines list and the activity log can be switched to: one the caller belongs to, or
 * one granted to their dealer (every farm, for the server's administrators).
 */
export const SwitchableFarmSchema = z.strictObject({ id: IdSchema, name: z.string() });
export type SwitchableFarm = z.infer<typeof SwitchableFarmSchema>;

export const SwitchableFarmListSchema = z.array(SwitchableFarmSchema);

export const FarmBodySchema = z.strictObject({ name: z.string().trim().min(1).max(FARM_NAME_MAX) });
export type FarmBody = z.infer<typeof FarmBodySchema>;

export const FarmParamsSchema = z.strictObject({ farmId: IdTextSchema });
export const FarmMemberParamsSchema = z.strictObject({ farmId: IdTextSchema, userId: IdTextSchema });

/** A farm's member as its managers see them, with the grants they hold on the farm's machines. */
export const FarmMemberSchema = z.strictObject({
  id: IdSchema,
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  role: FarmRoleSchema,
  grants: z.array(z.strictObject({ sprinklerId: IdSchema, level: AccessLevelSchema })),
});
export type FarmMember = z.infer<typeof FarmMemberSchema>;

/** A farm as its managers run it: its members and its machines. */
export const FarmDetailSchema = z.strictObject({
  farm: FarmSchema,
  members: z.array(FarmMemberSchema),
  machines: z.array(z.strictObject({ id: IdSchema, name: z.string(), internalId: z.string() })),
});
export type FarmDetail = z.infer<typeof FarmDetailSchema>;

/** An existing account made a member of a farm by the server's administrator. */
export const FarmMemberBodySchema = z.strictObject({ email: EmailSchema, role: FarmRoleSchema });
export type FarmMemberBody = z.infer<typeof FarmMemberBodySchema>;

export const FarmRoleBodySchema = z.strictObject({ role: FarmRoleSchema });
export type FarmRoleBody = z.infer<typeof FarmRoleBodySchema>;

/** Whether the farm requires two-step sign-in of its members. */
export const FarmSecondFactorBodySchema = z.strictObject({ required: z.boolean() });
export type FarmSecondFactorBody = z.infer<typeof FarmSecondFactorBodySchema>;

/** The farm a machine is moved to. */
export const MachineFarmBodySchema = z.strictObject({ farmId: IdSchema });
export type MachineFarmBody = z.infer<typeof MachineFarmBodySchema>;

/** How long an invitation's link works once mailed. */
export const INVITATION_LIFETIME_DAYS = 7;

/** An invitation not yet accepted or revoked, as the farm's managers see it. */
export const FarmInvitationSchema = z.strictObject({
  id: IdSchema,
  email: z.string(),
  role: FarmRoleSchema,
  /** ms since the epoch */
  sentAt: z.number(),
  /** ms since the epoch; null until its mail has gone out. */
  expiresAt: z.number().nullable(),
});
export type FarmInvitation = z.infer<typeof FarmInvitationSchema>;

export const FarmInvitationListSchema = z.array(FarmInvitationSchema);

export const FarmInvitationBodySchema = z.strictObject({ email: EmailSchema, role: FarmRoleSchema });
export type FarmInvitationBody = z.infer<typeof FarmInvitationBodySchema>;

export const FarmInvitationParamsSchema = z.strictObject({ farmId: IdTextSchema, invitationId: IdTextSchema });

export const InvitationTokenSchema = z.string().min(1).max(200);

/** What the invitation's page shows before it is accepted. */
export const InvitationPreviewSchema = z.strictObject({
  farmName: z.string(),
  email: z.string(),
  role: FarmRoleSchema,
  /** Whether the invited address has an account: it then accepts with its password, else sets one. */
  accountExists: z.boolean(),
});
export type InvitationPreview = z.infer<typeof InvitationPreviewSchema>;

export const InvitationPreviewQuerySchema = z.strictObject({ token: InvitationTokenSchema });

/**
 * Accepting: a person with an account confirms with their password; a new person gives their
 * names and sets a password, repeated.
 */
export const AcceptInvitationBodySchema = z.union([
  z.strictObject({ token: InvitationTokenSchema, password: PasswordInputSchema }),
  z.strictObject({
    token: InvitationTokenSchema,
    first_name: PersonNameSchema,
    last_name: PersonNameSchema,
    newPassword: PasswordInputSchema,
    repeatNewPassword: PasswordInputSchema,
  }),
]);
export type AcceptInvitationBody = z.infer<typeof AcceptInvitationBodySchema>;
