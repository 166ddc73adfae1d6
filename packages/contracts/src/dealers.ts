import { z } from 'zod';
import { IdSchema, IdTextSchema } from './common';
import { AccessLevelSchema } from './sprinklers';
import { EmailSchema } from './users';

/**
 * Dealers (docs/roles.md): organisations that service farms' machines. A farm grants a dealer
 * watch or control over all its machines or some, for a time or until revoked; the dealer's
 * members then use those machines at that level.
 */

/** The longest name a dealer may have, in characters. */
export const DEALER_NAME_MAX = 100;

export const DealerSchema = z.strictObject({ id: IdSchema, name: z.string() });
export type Dealer = z.infer<typeof DealerSchema>;
export const DealerListSchema = z.array(DealerSchema);

export const DealerBodySchema = z.strictObject({ name: z.string().trim().min(1).max(DEALER_NAME_MAX) });
export const DealerMemberBodySchema = z.strictObject({ email: EmailSchema });
export const DealerParamsSchema = z.strictObject({ dealerId: IdTextSchema });
export const DealerMemberParamsSchema = z.strictObject({ dealerId: IdTextSchema, userId: IdTextSchema });

/** A dealer's member, as the server's administrators list them. */
export const DealerMemberSchema = z.strictObject({
  id: IdSchema,
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
});
export type DealerMember = z.infer<typeof DealerMemberSchema>;
export const DealerMemberListSchema = z.array(DealerMemberSchema);
export const FarmDealerParamsSchema = z.strictObject({ farmId: IdTextSchema, dealerId: IdTextSchema });

/** The machines a grant covers: all the farm's, those it will have included, or the ones named. */
export const DealtMachinesSchema = z.union([z.literal('all'), z.array(IdSchema).min(1).max(1000)]);

export const DealerGrantBodySchema = z.strictObject({
  level: AccessLevelSchema,
  machines: DealtMachinesSchema,
  /** ms since the epoch; null or absent: until revoked. */
  expiresAt: z.number().int().positive().nullable().default(null),
});
export type DealerGrantBody = z.infer<typeof DealerGrantBodySchema>;

export const DealerGrantSchema = z.strictObject({
  dealer: DealerSchema,
  level: AccessLevelSchema,
  machines: DealtMachinesSchema,
  /** ms since the epoch; null: until revoked. */
  expiresAt: z.number().nullable(),
  grantedAt: z.number(),
  /** False once expired. */
  inForce: z.boolean(),
});
export type DealerGrant = z.infer<typeof DealerGrantSchema>;
export const DealerGrantListSchema = z.array(DealerGrantSchema);

/** A dealer's member's view of the farms granted to their dealers, side by side. */
export const DealerFleetFarmSchema = z.strictObject({
  farm: z.strictObject({ id: IdSchema, name: z.string() }),
  dealerName: z.string(),
  level: AccessLevelSchema,
  expiresAt: z.number().nullable(),
  machines: z.strictObject({
    total: z.number().int().nonnegative(),
    online: z.number().int().nonnegative(),
    moving: z.number().int().nonnegative(),
    inAlarm: z.number().int().nonnegative(),
  }),
  /** The incidents open on the machines granted (alarm, unexpected stop, offline, …; docs/alerts.md). */
  openIncidents: z.number().int().nonnegative(),
  /**
   * The soonest start planned among the machines granted: a pass the autopilot in auto put off to
   * a later moment (ms since the epoch); null when none is planned.
   */
  nextIrrigation: z
    .strictObject({ machine: z.strictObject({ id: IdSchema, name: z.string() }), at: z.number() })
    .nullable(),
});
export type DealerFleetFarm = z.infer<typeof DealerFleetFarmSchema>;
export const DealerFleetSchema = z.array(DealerFleetFarmSchema);
