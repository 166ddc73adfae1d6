import type { Queryable } from '../../db/client';
import { hashToken, randomToken } from '../../secrets';
import { type MailService, activationMail, emailChangedMail, passwordResetMail } from '../mail';
import { type LinkPurpose, expireLinkTokens, insertLinkToken, issueLinkToken } from './auth.repository';
import type { UserRow } from './users.table';

const LINK_LIFETIME_MS: Record<LinkPurpose, number> = {
  activation: 7 * 24 * 60 * 60 * 1000,
  reset: 60 * 60 * 1000,
};

/**
 * How long a link may wait for its mail to go out (the outbox gives up on a mail well within it);
 * a link not mailed by then is dropped.
 */
const MAILING_WINDOW_MS = 2 * 24 * 60 * 60 * 1000;

const LINK_PATH: Record<LinkPurpose, string> = { activation: 'activation', reset: 'set-password' };

/** The mail module's name for what makes the tokens of account links (mail-secrets.ts). */
export const ACCOUNT_LINK_SECRETS = 'account-link';

/**
 * Writes the account mails: activation, reset, and the notice of a changed email. Activation and
 * reset store a single-use link whose token is made only as its mail is sent (`issueToken`), so
 * neither the outbox nor the links' table ever holds a usable one; every mail is queued in the
 * caller's transaction, so the mail exists exactly when what caused it does.
 */
export class AccountMail {
  constructor(
    private readonly mail: MailService,
    private readonly publicUrl: string,
    private readonly productName: string,
  ) {}

  async queueActivation(db: Queryable, user: UserRow): Promise<void> {
    await this.queueLink(db, user, 'activation');
  }

  async queuePasswordReset(db: Queryable, user: UserRow): Promise<void> {
    await expireLinkTokens(db, user.id, 'reset');
    await this.queueLink(db, user, 'reset');
  }

  /**
   * The token of a link whose mail is being sent, stored only as its hash; null when the link is
   * no longer wanted (a newer one replaced it, it was used, or its account was removed).
   */
  async issueToken(db: Queryable, linkId: number): Promise<string | null> {
    const token = randomToken();
    return (await issueLinkToken(db, linkId, hashToken(token), LINK_LIFETIME_MS)) ? token : null;
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

  private async queueLink(db: Queryable, user: UserRow, purpose: LinkPurpose): Promise<void> {
    const id = await insertLinkToken(db, {
      userId: user.id,
      purpose,
      mailBy: new Date(Date.now() + MAILING_WINDOW_MS),
    });
    const template = purpose === 'activation' ? activationMail : passwordResetMail;
    const localePrefix = user.language === 'en' ? '/en' : '';
    await this.mail.queueWithSecret(
      db,
      (token) => ({
        to: user.email,
        ...template(
          this.templateInput(user, `${this.publicUrl}${localePrefix}/${LINK_PATH[purpose]}/${user.id}/${token}`),
        ),
      }),
      { issuer: ACCOUNT_LINK_SECRETS, id },
    );
  }

  private templateInput(user: UserRow, link: string) {
    return { language: user.language, firstName: user.firstName, link, productName: this.productName };
  }
}
