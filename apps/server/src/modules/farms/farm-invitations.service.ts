import {
  type AcceptInvitationBody,
  type FarmInvitation,
  type FarmInvitationBody,
  INVITATION_LIFETIME_DAYS,
  type InvitationPreview,
  type Language,
  brokenPasswordRules,
} from '@pivot/contracts';
import type { Database, Queryable } from '../../db/client';
import { AppError, PasswordRejectedError } from '../../errors';
import type { ClientInfo, SignedInUser } from '../../http/request-context';
import { hashToken, randomToken } from '../../secrets';
import type { AccessService, FarmRow } from '../access';
import type { LogsService, NewLogEntry } from '../logs';
import { type MailService, farmInvitationMail } from '../mail';
import type { SprinklersService } from '../sprinklers';
import type { UsersService } from '../users';
import type { FarmInvitationRow } from './farms.table';
import {
  findInvitationByToken,
  findOpenInvitation,
  insertInvitation,
  issueInvitationToken,
  listOpenInvitations,
  markAccepted,
  renewInvitation,
  revokeInvitation,
} from './farms.repository';

const DAY_MS = 24 * 60 * 60 * 1000;
const LINK_LIFETIME_MS = INVITATION_LIFETIME_DAYS * DAY_MS;
/** How long an invitation's mail may wait in the outbox; one not sent by then makes no link. */
const MAILING_WINDOW_MS = 2 * DAY_MS;

/** The mail module's name for what makes the tokens of invitation links (mail-secrets.ts). */
export const INVITATION_LINK_SECRETS = 'farm-invitation';

export type FarmInvitationsDeps = {
  db: Database;
  access: AccessService;
  users: UsersService;
  sprinklers: SprinklersService;
  logs: LogsService;
  mail: MailService;
  publicUrl: string;
  productName: string;
  /** Whether the caller may invite in this role: the farm's rules of who handles whom (farms.service.ts). */
  mayInvite: (db: Queryable, actor: SignedInUser, farmId: number, role: FarmInvitationBody['role']) => Promise<void>;
};

function presentInvitation(row: FarmInvitationRow): FarmInvitation {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    sentAt: row.sentAt.getTime(),
    expiresAt: row.expiresAt?.getTime() ?? null,
  };
}

/**
 * Invitations to a farm by e-mail (docs/roles.md): its owners and managers invite, resend and
 * revoke; the mailed link, hashed at rest, working once and for 7 days, lets a new person set
 * their password or a person with an account accept with theirs. Each step is in the farm's log.
 */
export class FarmInvitations {
  constructor(private readonly deps: FarmInvitationsDeps) {
    deps.mail.issueSecretsWith(INVITATION_LINK_SECRETS, async (tx, id) => {
      const token = randomToken();
      return (await issueInvitationToken(tx, id, hashToken(token), LINK_LIFETIME_MS)) ? token : null;
    });
  }

  async list(actor: SignedInUser, farmId: number): Promise<FarmInvitation[]> {
    const { db } = this.deps;
    await this.deps.mayInvite(db, actor, farmId, 'member');
    return (await listOpenInvitations(db, farmId)).map(presentInvitation);
  }

  async invite(
    actor: SignedInUser,
    farmId: number,
    body: FarmInvitationBody,
    language: Language,
    client: ClientInfo,
  ): Promise<FarmInvitation> {
    const { db, access, users, mail } = this.deps;
    const invitation = await db.transaction(async (tx) => {
      await this.deps.mayInvite(tx, actor, farmId, body.role);
      const farm = (await access.farm(tx, farmId))!;
      const existing = await users.findByEmail(body.email, tx);
      if (existing && (await access.roleIn(tx, farmId, existing.id))) throw new AppError('farm_member_exists');
      const created = await insertInvitation(tx, {
        farmId,
        email: body.email,
        role: body.role,
        language,
        invitedBy: actor.id,
        mailBy: new Date(Date.now() + MAILING_WINDOW_MS),
      });
      if (!created) throw new AppError('invitation_pending');
      await this.send(tx, created, farm, actor, client);
      return created;
    });
    mail.wake();
    return presentInvitation(invitation);
  }

  async resend(actor: SignedInUser, farmId: number, invitationId: number, client: ClientInfo): Promise<FarmInvitation> {
    const { db, access, mail } = this.deps;
    const renewed = await db.transaction(async (tx) => {
      const open = await this.openInvitation(tx, actor, farmId, invitationId);
      const invitation = await renewInvitation(tx, open.id, new Date(Date.now() + MAILING_WINDOW_MS));
      await this.send(tx, invitation, (await access.farm(tx, farmId))!, actor, client);
      return invitation;
    });
    mail.wake();
    return presentInvitation(renewed);
  }

  async revoke(actor: SignedInUser, farmId: number, invitationId: number, client: ClientInfo): Promise<void> {
    const { db, access } = this.deps;
    await db.transaction(async (tx) => {
      const invitation = await this.openInvitation(tx, actor, farmId, invitationId);
      await revokeInvitation(tx, invitation.id);
      await this.log(tx, 'farm_invitation_revoked', actor, (await access.farm(tx, farmId))!, invitation, client);
    });
  }

  /** What the invitation's page shows; invalid_link for a link that no longer works. */
  async preview(id: number, token: string): Promise<InvitationPreview> {
    const { db, access, users } = this.deps;
    const invitation = await findInvitationByToken(db, id, hashToken(token));
    if (!invitation) throw new AppError('invalid_link');
    const farm = (await access.farm(db, invitation.farmId))!;
    const account = await users.findByEmail(invitation.email);
    return {
      farmName: farm.name,
      email: invitation.email,
      role: invitation.role,
      accountExists: account !== undefined,
    };
  }

  /**
   * Accepts: the person with an account of the invited address confirms with its password; a new
   * person sets theirs and is signed up, activated. Once accepted the link works no more.
   */
  async accept(id: number, body: AcceptInvitationBody, client: ClientInfo): Promise<void> {
    const { db, access, users, sprinklers } = this.deps;
    if ('newPassword' in body) {
      const problems = brokenPasswordRules(body.newPassword);
      if (problems.length > 0 || body.newPassword !== body.repeatNewPassword) {
        throw new PasswordRejectedError({
          newPassword: problems,
          repeatNewPassword: body.newPassword === body.repeatNewPassword ? [] : ['mismatch'],
        });
      }
    }
    // The password is checked before the transaction: its throttle keeps its own rows.
    const tokenHash = hashToken(body.token);
    const invited = await findInvitationByToken(db, id, tokenHash);
    if (!invited) throw new AppError('invalid_link');
    const existing = await users.findByEmail(invited.email);
    const signUp = 'newPassword' in body ? body : null;
    const proven = existing
      ? 'password' in body && (await users.passwordMatches(existing, body.password))
      : signUp !== null;
    if (!proven) throw new AppError('invalid_credentials');
    await db.transaction(async (tx) => {
      // Locked: of two acceptances at once, the second finds it accepted.
      const invitation = await findInvitationByToken(tx, id, tokenHash, true);
      if (!invitation) throw new AppError('invalid_link');
      const person =
        existing ??
        (await users.createInvited(
          tx,
          {
            firstName: signUp!.first_name,
            lastName: signUp!.last_name,
            email: invitation.email,
            language: invitation.language,
          },
          signUp!.newPassword,
        ));
      await markAccepted(tx, invitation.id);
      const farm = (await access.farm(tx, invitation.farmId))!;
      if (await access.addMember(tx, farm.id, person.id, invitation.role)) {
        await this.deps.logs.record(tx, {
          eventType: 'farm_member_added',
          actorUserId: person.id,
          subjectUserId: person.id,
          farm: { id: farm.id, name: farm.name },
          event: person.email,
          details: invitation.role,
          ip: client.ip,
        });
      }
    });
    sprinklers.machinesChanged();
  }

  private async openInvitation(db: Queryable, actor: SignedInUser, farmId: number, invitationId: number) {
    await this.deps.mayInvite(db, actor, farmId, 'member');
    const invitation = await findOpenInvitation(db, farmId, invitationId);
    if (!invitation) throw new AppError('invitation_not_found');
    await this.deps.mayInvite(db, actor, farmId, invitation.role);
    return invitation;
  }

  /** Queues the invitation's mail, its link made as it goes out, and logs the sending. */
  private async send(
    db: Queryable,
    invitation: FarmInvitationRow,
    farm: FarmRow,
    actor: SignedInUser,
    client: ClientInfo,
  ): Promise<void> {
    const { mail, publicUrl, productName } = this.deps;
    const localePrefix = invitation.language === 'en' ? '/en' : '';
    await mail.queueWithSecret(
      db,
      (token) => ({
        to: invitation.email,
        ...farmInvitationMail({
          language: invitation.language,
          productName,
          farmName: farm.name,
          inviter: actor.email,
          role: invitation.role,
          link: `${publicUrl}${localePrefix}/invitation/${invitation.id}/${token}`,
        }),
      }),
      { issuer: INVITATION_LINK_SECRETS, id: invitation.id },
    );
    await this.log(db, 'farm_invitation_sent', actor, farm, invitation, client);
  }

  private log(
    db: Queryable,
    eventType: NewLogEntry['eventType'],
    actor: SignedInUser,
    farm: FarmRow,
    invitation: FarmInvitationRow,
    client: ClientInfo,
  ) {
    return this.deps.logs.record(db, {
      eventType,
      actorUserId: actor.id,
      farm: { id: farm.id, name: farm.name },
      event: invitation.email,
      details: invitation.role,
      ip: client.ip,
    });
  }
}
