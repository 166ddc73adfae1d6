import { NoContentSchema } from '../common';
import {
  DealerBodySchema,
  DealerFleetSchema,
  DealerGrantBodySchema,
  DealerGrantListSchema,
  DealerGrantSchema,
  DealerListSchema,
  DealerMemberBodySchema,
  DealerMemberListSchema,
  DealerMemberParamsSchema,
  DealerParamsSchema,
  DealerSchema,
  FarmDealerParamsSchema,
} from '../dealers';
import { endpoint } from '../endpoint';
import { FarmParamsSchema } from '../farms';

/* Dealers and the access farms grant them (docs/roles.md). */

const tag = 'dealers';

export const list = endpoint({
  method: 'GET',
  path: '/dealer/',
  answer: DealerListSchema,
  errors: [],
  tag,
  summary: 'The dealers, by name: whom a farm may grant access',
});

export const create = endpoint({
  method: 'POST',
  path: '/dealer/',
  body: DealerBodySchema,
  answer: DealerSchema,
  status: 201,
  errors: ['dealer_name_taken'],
  tag,
  summary: 'Creates a dealer (administrators)',
});

export const addMember = endpoint({
  method: 'POST',
  path: '/dealer/:dealerId/members/',
  params: DealerParamsSchema,
  body: DealerMemberBodySchema,
  answer: NoContentSchema,
  status: 204,
  errors: ['dealer_not_found', 'user_not_found'],
  tag,
  summary: "Makes an existing account a dealer's member (administrators)",
});

export const members = endpoint({
  method: 'GET',
  path: '/dealer/:dealerId/members/',
  params: DealerParamsSchema,
  answer: DealerMemberListSchema,
  errors: ['dealer_not_found'],
  tag,
  summary: "A dealer's members, in the order they were added (administrators)",
});

export const removeMember = endpoint({
  method: 'DELETE',
  path: '/dealer/:dealerId/members/:userId/',
  params: DealerMemberParamsSchema,
  answer: NoContentSchema,
  status: 204,
  errors: ['dealer_not_found', 'user_not_found'],
  tag,
  summary:
    "Removes a dealer's member: their access through the dealer ends at once, their open streams too (administrators)",
});

export const fleet = endpoint({
  method: 'GET',
  path: '/dealer/fleet/',
  answer: DealerFleetSchema,
  errors: [],
  tag,
  summary:
    "The farms granted to the caller's dealers, side by side, each with its machines online, moving and in alarm, its open incidents and the next start planned",
});

export const farmGrants = endpoint({
  method: 'GET',
  path: '/farm/:farmId/dealers/',
  params: FarmParamsSchema,
  answer: DealerGrantListSchema,
  errors: ['farm_not_found', 'forbidden'],
  tag,
  summary: "The farm's grants to dealers, expired ones too (its owners and managers)",
});

export const grant = endpoint({
  method: 'PUT',
  path: '/farm/:farmId/dealers/:dealerId/',
  params: FarmDealerParamsSchema,
  body: DealerGrantBodySchema,
  answer: DealerGrantSchema,
  errors: ['farm_not_found', 'forbidden', 'dealer_not_found', 'sprinkler_not_found'],
  tag,
  summary:
    "Grants a dealer watch or control over the farm's machines, all or some, until a time or revoked (its owners and managers)",
});

export const revoke = endpoint({
  method: 'DELETE',
  path: '/farm/:farmId/dealers/:dealerId/',
  params: FarmDealerParamsSchema,
  answer: NoContentSchema,
  status: 204,
  errors: ['farm_not_found', 'forbidden', 'dealer_not_found'],
  tag,
  summary: "Ends a dealer's access to the farm's machines at once, their open streams too",
});
