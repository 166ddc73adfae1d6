import { IdParamsSchema, NoContentSchema } from '../common';
import { endpoint } from '../endpoint';
import {
  AcceptInvitationBodySchema,
  FarmBodySchema,
  FarmDetailSchema,
  FarmInvitationBodySchema,
  FarmInvitationListSchema,
  FarmInvitationParamsSchema,
  FarmInvitationSchema,
  FarmListSchema,
  FarmMemberBodySchema,
  FarmMemberParamsSchema,
  FarmMemberSchema,
  FarmParamsSchema,
  FarmRoleBodySchema,
  FarmSecondFactorBodySchema,
  InvitationPreviewQuerySchema,
  InvitationPreviewSchema,
  FarmSchema,
  MachineFarmBodySchema,
  SwitchableFarmListSchema,
} from '../farms';

/* Farms, their members and roles, and which farm a machine belongs to (docs/roles.md). */

export const list = endpoint({
  method: 'GET',
  path: '/farm/',
  answer: FarmListSchema,
  errors: [],
  tag: 'farms',
  summary: "The farms the caller belongs to, with their role in each (every farm, for the server's administrators)",
});

export const switchable = endpoint({
  method: 'GET',
  path: '/farm/switchable/',
  answer: SwitchableFarmListSchema,
  errors: [],
  tag: 'farms',
  summary:
    "The farms the machines list and the activity log can be switched to: the caller's and those granted to their dealers, by name",
});

export const create = endpoint({
  method: 'POST',
  path: '/farm/',
  body: FarmBodySchema,
  answer: FarmSchema,
  status: 201,
  errors: ['farm_name_taken'],
  tag: 'farms',
  summary: 'Creates a farm (administrators)',
});

export const rename = endpoint({
  method: 'PATCH',
  path: '/farm/:farmId/',
  params: FarmParamsSchema,
  body: FarmBodySchema,
  answer: FarmSchema,
  errors: ['farm_not_found', 'forbidden', 'farm_name_taken'],
  tag: 'farms',
  summary: "Renames a farm (its owners, the server's administrators)",
});

export const requireSecondFactor = endpoint({
  method: 'PUT',
  path: '/farm/:farmId/second-factor/',
  params: FarmParamsSchema,
  body: FarmSecondFactorBodySchema,
  answer: FarmSchema,
  errors: ['farm_not_found', 'forbidden'],
  tag: 'farms',
  summary: "Requires two-step sign-in of the farm's members, or no longer (its owners, the server's administrators)",
});

export const detail = endpoint({
  method: 'GET',
  path: '/farm/:farmId/',
  params: FarmParamsSchema,
  answer: FarmDetailSchema,
  errors: ['farm_not_found', 'forbidden'],
  tag: 'farms',
  summary: "A farm's members with their grants, and its machines (its owners and managers)",
});

export const addMember = endpoint({
  method: 'POST',
  path: '/farm/:farmId/members/',
  params: FarmParamsSchema,
  body: FarmMemberBodySchema,
  answer: FarmMemberSchema,
  status: 201,
  errors: ['farm_not_found', 'user_not_found', 'farm_member_exists'],
  tag: 'farms',
  summary: 'Makes an existing account a member of a farm, in a role (administrators)',
});

export const changeRole = endpoint({
  method: 'PATCH',
  path: '/farm/:farmId/members/:userId/',
  params: FarmMemberParamsSchema,
  body: FarmRoleBodySchema,
  answer: FarmMemberSchema,
  errors: ['farm_not_found', 'forbidden', 'user_not_found', 'last_owner'],
  tag: 'farms',
  summary: "Changes a member's role (owners: every role; managers: between member and manager)",
});

export const removeMember = endpoint({
  method: 'DELETE',
  path: '/farm/:farmId/members/:userId/',
  params: FarmMemberParamsSchema,
  answer: NoContentSchema,
  status: 204,
  errors: ['farm_not_found', 'forbidden', 'user_not_found', 'last_owner'],
  tag: 'farms',
  summary: "Removes a member, and their grants of the farm's machines (or a member leaves)",
});

export const moveMachine = endpoint({
  method: 'PATCH',
  path: '/sprinkler/:id/farm/',
  params: IdParamsSchema,
  body: MachineFarmBodySchema,
  answer: FarmSchema,
  errors: ['sprinkler_not_found', 'farm_not_found'],
  tag: 'farms',
  summary: 'Moves a machine to a farm; grants of people outside that farm end (administrators)',
});

export const invitations = endpoint({
  method: 'GET',
  path: '/farm/:farmId/invitations/',
  params: FarmParamsSchema,
  answer: FarmInvitationListSchema,
  errors: ['farm_not_found', 'forbidden'],
  tag: 'farms',
  summary: "The farm's invitations not yet accepted or revoked (its owners and managers)",
});

export const invite = endpoint({
  method: 'POST',
  path: '/farm/:farmId/invitations/',
  params: FarmParamsSchema,
  body: FarmInvitationBodySchema,
  answer: FarmInvitationSchema,
  status: 201,
  errors: ['farm_not_found', 'forbidden', 'farm_member_exists', 'invitation_pending'],
  tag: 'farms',
  summary:
    'Invites a person by e-mail, in a role: a link, hashed at rest, single-use, for 7 days (owners; managers not as owner)',
});

export const resendInvitation = endpoint({
  method: 'POST',
  path: '/farm/:farmId/invitations/:invitationId/resend/',
  params: FarmInvitationParamsSchema,
  answer: FarmInvitationSchema,
  errors: ['farm_not_found', 'forbidden', 'invitation_not_found'],
  tag: 'farms',
  summary: 'Mails an invitation again with a new link; the link mailed before stops working',
});

export const revokeInvitation = endpoint({
  method: 'DELETE',
  path: '/farm/:farmId/invitations/:invitationId/',
  params: FarmInvitationParamsSchema,
  answer: NoContentSchema,
  status: 204,
  errors: ['farm_not_found', 'forbidden', 'invitation_not_found'],
  tag: 'farms',
  summary: 'Revokes an invitation: its link stops working',
});

export const previewInvitation = endpoint({
  method: 'GET',
  path: '/invitation/:id/',
  params: IdParamsSchema,
  query: InvitationPreviewQuerySchema,
  answer: InvitationPreviewSchema,
  errors: ['invalid_link'],
  tag: 'farms',
  summary: "An invitation's farm, address and role, for its page (the mailed link's token)",
});

export const acceptInvitation = endpoint({
  method: 'POST',
  path: '/invitation/:id/accept/',
  params: IdParamsSchema,
  body: AcceptInvitationBodySchema,
  answer: NoContentSchema,
  status: 204,
  errors: ['invalid_link', 'invalid_credentials', 'password_rejected', 'rate_limited'],
  tag: 'farms',
  summary: 'Accepts an invitation: with the password of the account it was sent to, or as a new person setting one',
});
