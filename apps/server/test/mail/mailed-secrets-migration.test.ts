import { rm } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { idempotentRequests } from '../../src/modules/idempotency/idempotency.table';
import { mailOutbox } from '../../src/modules/mail/mail.table';
import { hashToken, randomToken } from '../../src/secrets';
import { migrationsBefore, migrationsFolder } from '../support/migrations';
import { unmigratedPglite } from '../support/embedded-databases';

describe('the migrations that take tokens out of the mail outbox and the idempotency keys', () => {
  const client = unmigratedPglite();
  const db = drizzle(client, { casing: 'snake_case' });
  afterAll(() => client.close());

  it('turns a waiting link mail into one whose token is made as it is sent, and takes every token out', async () => {
    const older = await migrationsBefore('0027_mailed_secrets');
    await migrate(db, { migrationsFolder: older });
    await rm(older, { recursive: true, force: true });
    const [waiting, sent, replaced] = [randomToken(), randomToken(), randomToken()];
    const mail = (path: string, token: string) => ({
      text: `Hello,\n\nhttp://pivot.test${path}/${token}\n\nPivot\n`,
      html: `<p><a href="http://pivot.test${path}/${token}">http://pivot.test${path}/${token}</a></p>`,
    });
    await db.execute(sql`insert into users (first_name, last_name, email) values ('Ola', 'Mazur', 'ola@farm.pl')`);
    await db.execute(sql`
      insert into link_tokens (user_id, purpose, token_hash, expires_at, used_at) values
        (1, 'reset', ${hashToken(waiting)}, now() + interval '1 hour', null),
        (1, 'activation', ${hashToken(sent)}, now() + interval '7 days', null),
        (1, 'reset', ${hashToken(replaced)}, now() + interval '1 hour', now())`);
    for (const [path, token, status] of [
      ['/set-password/1', waiting, 'pending'],
      ['/en/activation/1', sent, 'sent'],
      ['/set-password/1', replaced, 'pending'],
    ] as const) {
      const { text, html } = mail(path, token);
      await db.execute(
        sql`insert into mail_outbox (recipient, subject, text, html, status) values ('ola@farm.pl', 'Link', ${text}, ${html}, ${status})`,
      );
    }
    await db.execute(sql`
      insert into idempotent_requests (user_id, key, fingerprint, status, content_type, body)
      values (1, 'retry-key-123', 'f', 201, 'application/json', '{"secret":"whsec_abc"}')`);

    await migrate(db, { migrationsFolder });

    const rows = await db.select().from(mailOutbox).orderBy(mailOutbox.id);
    expect(rows.map(({ status, secretIssuer, secretFor }) => ({ status, secretIssuer, secretFor }))).toEqual([
      { status: 'pending', secretIssuer: 'account-link', secretFor: 1 },
      { status: 'sent', secretIssuer: null, secretFor: null },
      { status: 'cancelled', secretIssuer: null, secretFor: null },
    ]);
    expect(rows[0]).toMatchObject(mail('/set-password/1', '{{secret}}'));
    expect(rows[1]).toMatchObject(mail('/en/activation/1', '{{secret}}'));
    const [kept] = await db.select().from(idempotentRequests);
    expect(kept).toMatchObject({ key: hashToken('retry-key-123'), status: null, body: null });
  });
});
