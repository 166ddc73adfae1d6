import type { Queryable } from '../../db/client';
import { hashToken, randomToken } from '../../secrets';
import { type MailService, activationMail, emailChangedMail, passwordResetMail } from '../mail';
import { type LinkPurpose, expireLinkTokens, insertLinkToken } from './auth.repository';
import type { UserRow } from './users.table';

const LINK_LIFETIME_MS: Record<LinkPurpose, number> = {
  activation: 7 * 24 * 60 * 60 * 1000,
  reset: 60 * 60 * 1000,
};

const LINK_PATH: Record<LinkPurpose, string> = { activation: 'activation', reset: 'set-password' };

/**
 * Writes the account mails: activation, reset, and the notice of a changed email. Activation and
 * reset store a fresh single-use link; every mail is queued in the caller's transaction, so the
 * mail exists exactly when what caused it does.
 */
export class AccountMail {
  constructor(
    private readonly mail: MailService,
    private readonly publicUrl: string,
    private readonly productName: string,
  ) {}

  async queueActivation(db: Queryable, user: UserRow): Promise<void> {
    const link = await this.createLink(db, user, 'activation');
    await this.mail.queue(db, { to: user.email, ...activationMail(this.templateInput(user, link)) });
  }

  async queuePasswordReset(db: Queryable, user: UserRow): Promise<void> {
    await expireLinkTokens(db, user.id, 'reset');
    const link = await this.createLink(db, user, 'reset');
    await this.mail.queue(db, { to: user.email, ...passwordResetMail(this.templateInput(user, link)) });
  }

  /** Tells the old address that the account's email changed: the owner learns of a takeover there. */
  async queueEmailChangedNotice(db: Queryable, user: UserRow, oldEmail: string): Promise<void> {
    await this.mail.queue(db, {
      to: oldEmail,
      ...emailChangedMail({
        language: user.language,
        firstName: user.firstName,
        productName: this.productName,
        oldEmail,
        newEmail: user.email,
      }),
    });
  }

  private async createLink(db: Queryable, user: UserRow, purpose: LinkPurpose): Promise<string> {
    const token = randomToken();
    await insertLinkToken(db, {
      userId: user.id,
      purpose,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + LINK_LIFETIME_MS[purpose]),
    });
    const localePrefix = user.language === 'en' ? '/en' : '';
    return `${this.publicUrl}${localePrefix}/${LINK_PATH[purpose]}/${user.id}/${token}`;
  }

  private templateInput(user: UserRow, link: string) {
    return { language: user.language, firstName: user.firstName, link, productName: this.productName };
  }
}
