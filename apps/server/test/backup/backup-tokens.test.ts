import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBackupLines, openBackupFile } from '../../src/backup/backup-file';
import { PRODUCT_NAME } from '../../src/config';
import { mailOutbox } from '../../src/modules/mail/mail.table';
import { AccountMail } from '../../src/modules/users/account-mail';
import { REMEMBERED_BROWSER_COOKIE } from '../../src/modules/users/auth.routes';
import { totpCode } from '../../src/modules/users/totp';
import { type ApiClient } from '../support/api-client';
import { registerController } from '../support/devices';
import { buildSprinkler } from '../support/fixtures';
import { SoftwareAuthenticator } from '../support/software-authenticator';
import { browserSubscriptionKeys } from '../support/push-service';
import { PUBLIC_URL, type TestApp, USER_PASSWORD, createTestApp, linkIn } from '../support/test-app';

type SecondFactorAsked = { secondFactor: { challenge: string } };
type PromptOptions = { options: { challenge: string } };

/** What a backup's payload holds: each table's rows, and the data folder's files. */
type BackupContent = { rows: Map<string, Record<string, unknown>[]>; files: Map<string, string> };

async function readBackup(file: string): Promise<BackupContent> {
  const content: BackupContent = { rows: new Map(), files: new Map() };
  let table: Record<string, unknown>[] = [];
  for await (const line of readBackupLines(await openBackupFile(file, {}))) {
    if (line.startsWith('T ')) {
      table = [];
      content.rows.set(line.slice(2), table);
    } else if (line.startsWith('R ')) {
      table.push(JSON.parse(line.slice(2)) as Record<string, unknown>);
    } else if (line.startsWith('F ')) {
      const [, name, base64] = line.split(' ');
      content.files.set(name!, Buffer.from(base64!, 'base64').toString('utf8'));
    }
  }
  return content;
}

/**
 * Strings in a text that could be a token: JWTs, and long runs of base64url, base64 or hex
 * (which base64url covers). In the mail outbox, where a link's token would sit among words, every
 * run of eight or more such characters.
 */
function tokenLooking(text: string, minLength: number): string[] {
  const patterns = [
    /eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g,
    new RegExp(`[A-Za-z0-9_-]{${minLength},}`, 'g'),
    new RegExp(`[A-Za-z0-9+/]{${minLength},}={0,2}`, 'g'),
  ];
  return patterns.flatMap((pattern) => text.match(pattern) ?? []);
}

/** Every token-looking string of the backup, by the table and column (or file) it was found in. */
function tokensByPlace(backup: BackupContent): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  const add = (place: string, text: string, minLength: number) => {
    for (const candidate of tokenLooking(text, minLength)) {
      const set = found.get(place) ?? new Set<string>();
      set.add(candidate);
      found.set(place, set);
    }
  };
  for (const [table, rows] of backup.rows) {
    for (const row of rows) {
      for (const [column, value] of Object.entries(row)) {
        if (value === null || typeof value === 'number' || typeof value === 'boolean') continue;
        add(
          `${table}.${column}`,
          typeof value === 'string' ? value : JSON.stringify(value),
          table === 'mail_outbox' ? 8 : 16,
        );
      }
    }
  }
  for (const [name, text] of backup.files) add(`file ${name}`, text, 16);
  return found;
}

/**
 * A value that looks like a key, a secret or a hash of one: a run of 22 or more base64 or
 * base64url characters (128 bits) mixing upper case, lower case and digits, or of 32 or more hex
 * digits. UUIDs (ids) and words do not.
 */
function secretLooking(text: string): boolean {
  const runs = text.match(/[A-Za-z0-9_+/-]{22,}/g) ?? [];
  return runs.some((run) => /[A-Z]/.test(run) && /[a-z]/.test(run) && /[0-9]/.test(run)) || /[0-9a-f]{32,}/i.test(text);
}

/** The columns docs/operations.md lists under "What a backup holds", as `table.column`. */
async function documentedColumns(): Promise<Set<string>> {
  const operations = await readFile(new URL('../../../../docs/operations.md', import.meta.url), 'utf8');
  const section = /\*\*What a backup holds\.\*\*([\s\S]*?)\n\*\*/.exec(operations)?.[1] ?? '';
  return new Set([...section.matchAll(/^\| `([a-z_]+\.[a-z_0-9]+)`/gm)].map((match) => match[1]!));
}

/** A new password the rules refuse: a link that works answers password_rejected, and stays unused. */
const REFUSED_PASSWORD = 'x';

// Each candidate tried at every door: a few thousand requests, seconds alone, tens of seconds beside
// the rest of the test command on two cores.
describe('a backup opens nothing', { timeout: 90_000 }, () => {
  let t: TestApp;
  let admin: ApiClient;
  let folder: string;
  let remembered: ApiClient;
  let machineId: string;
  let backup: BackupContent;
  let found: Map<string, Set<string>>;
  let webhookRequest: { idempotencyKey: string; url: string };
  let webhookSecret: string;
  let farmInvitationId: number;
  let guarded: { email: string };
  let recoveryCodes: string[];
  let rememberedBrowser: ApiClient;
  let waitingChallenge: string;

  beforeAll(async () => {
    t = await createTestApp({ OUTBOUND_ALLOWED_HOSTS: '127.0.0.1:9' });
    folder = await mkdtemp(path.join(os.tmpdir(), 'pivot-backup-tokens-'));
    admin = await t.adminClient();

    // A farmer asked for a new password, and an administrator invited a user who has not
    // activated yet; both mails went out.
    const farmer = await t.buildUser();
    expect((await t.client().post('/api/user/password-email/', { email: farmer.email })).status).toBe(200);
    const invited = await admin.post('/api/user/', {
      first_name: 'Anna',
      last_name: 'Nowak',
      email: 'invited@farm.pl',
      language: 'pl',
    });
    expect(invited.status).toBe(201);
    // A farm's owner invited a new person to the farm; that link went out too.
    const farmOwner = await t.buildUser();
    const farmId = ((await admin.post('/api/farm/', { name: 'Farm that invites' })).body as { id: number }).id;
    await admin.post(`/api/farm/${farmId}/members/`, { email: farmOwner.email, role: 'owner' });
    const farmOwnerClient = t.client();
    await farmOwnerClient.login(farmOwner.email, USER_PASSWORD);
    const farmInvitation = await farmOwnerClient.post(`/api/farm/${farmId}/invitations/`, {
      email: 'farm.invited@farm.pl',
      role: 'manager',
    });
    expect(farmInvitation.status).toBe(201);
    farmInvitationId = (farmInvitation.body as { id: number }).id;
    await t.outboxMails();
    // A farmer with two-step sign-in: a browser remembered, and a sign-in waiting for its code.
    guarded = await t.buildUser();
    const guardedClient = t.client();
    await guardedClient.login(guarded.email, USER_PASSWORD);
    const setup = await guardedClient.post('/api/user/second-factor/setup/', { password: USER_PASSWORD });
    const confirmed = await guardedClient.post('/api/user/second-factor/', {
      code: totpCode((setup.body as { secret: string }).secret, Date.now()),
    });
    recoveryCodes = (confirmed.body as { recovery_codes: string[] }).recovery_codes;
    // A passkey beside the app, and another being made (its registration's challenge waiting).
    const passkeyOptions = async () =>
      ((await guardedClient.post('/api/user/passkeys/options/', { password: USER_PASSWORD })).body as PromptOptions)
        .options;
    const authenticator = new SoftwareAuthenticator(PUBLIC_URL, new URL(PUBLIC_URL).hostname);
    const added = await guardedClient.post('/api/user/passkeys/', {
      name: 'Phone',
      response: authenticator.register((await passkeyOptions()).challenge),
    });
    expect(added.status).toBe(201);
    await passkeyOptions();
    rememberedBrowser = t.client();
    const rememberedLogin = await rememberedBrowser.post('/api/user/login/', {
      email: guarded.email,
      password: USER_PASSWORD,
    });
    const remembering = await rememberedBrowser.post('/api/user/login/second-factor/', {
      challenge: (rememberedLogin.body as SecondFactorAsked).secondFactor.challenge,
      recoveryCode: recoveryCodes[0],
      rememberBrowser: true,
    });
    expect(remembering.cookies.has(REMEMBERED_BROWSER_COOKIE)).toBe(true);
    const waitingLogin = await t.client().post('/api/user/login/', { email: guarded.email, password: USER_PASSWORD });
    waitingChallenge = (waitingLogin.body as SecondFactorAsked).secondFactor.challenge;
    // Its passkey prompt asked for: the challenge holds the WebAuthn challenge too.
    const prompt = await t.client().post('/api/user/login/passkey/', { challenge: waitingChallenge });
    expect(prompt.status).toBe(200);
    // Another farmer's reset mail waits in the outbox, as while the mail server is down.
    const waiting = await t.buildUser();
    await t.database.db.transaction(async (tx) => {
      await new AccountMail(t.app.mail, PUBLIC_URL, PRODUCT_NAME).queuePasswordReset(tx, waiting);
      await tx
        .update(mailOutbox)
        .set({ nextAttemptAt: new Date(Date.now() + 3_600_000) })
        .where(eq(mailOutbox.recipient, waiting.email));
    });

    // A session with "remember me", a webhook added with an Idempotency-Key, a controller.
    const owner = await t.buildUser();
    remembered = t.client();
    await remembered.login(owner.email, USER_PASSWORD, true);
    webhookRequest = { idempotencyKey: randomUUID(), url: 'https://127.0.0.1:9/hook' };
    const webhook = await remembered.post(
      '/api/account/webhooks/',
      { url: webhookRequest.url },
      { headers: { 'idempotency-key': webhookRequest.idempotencyKey } },
    );
    expect(webhook.status).toBe(201);
    webhookSecret = (webhook.body as { secret: string }).secret;
    const subscribed = await remembered.post('/api/push/subscriptions/', {
      endpoint: 'https://127.0.0.1:9/push/browser',
      keys: browserSubscriptionKeys().keys,
    });
    expect(subscribed.status).toBe(204);
    machineId = (await buildSprinkler(t)).internalId;
    await registerController(t.app, machineId);

    // The backup, as an administrator downloads it from the admin panel.
    const download = await t.app.inject({
      method: 'GET',
      url: '/api/admin/backup/',
      headers: { authorization: `Bearer ${admin.access}` },
    });
    expect(download.statusCode).toBe(200);
    const file = path.join(folder, 'downloaded.pivotbackup');
    await writeFile(file, download.rawPayload);
    backup = await readBackup(file);
    found = tokensByPlace(backup);
  });
  afterAll(async () => {
    await t.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('holds no string that opens a mailed link, a session, the API or the local backup', async () => {
    const candidates = new Set([...found.values()].flatMap((set) => [...set]));
    const userIds = (backup.rows.get('users') ?? []).map((user) => Number(user.id));
    expect(userIds.length).toBeGreaterThanOrEqual(5);
    const tried: Record<string, number> = {
      link: 0,
      farmInvitation: 0,
      secondFactorChallenge: 0,
      refresh: 0,
      bearer: 0,
      localBackup: 0,
      controller: 0,
    };
    const opened: string[] = [];
    // A candidate's tries at once (the server answers each on its own), one candidate after another.
    const triesOf = (candidate: string): Promise<void>[] => [
      ...userIds.map(async (uid) => {
        const link = await t.client().post('/api/user/set-password/', {
          uid,
          token: candidate,
          newPassword: REFUSED_PASSWORD,
          repeatNewPassword: REFUSED_PASSWORD,
        });
        tried.link! += 1;
        const code = (link.body as { code?: string } | undefined)?.code;
        if (code !== 'invalid_link' && code !== 'validation_error') opened.push(`link ${uid}/${candidate}: ${code}`);
      }),
      (async () => {
        const farmLink = await t.client().get(`/api/invitation/${farmInvitationId}/`, { query: { token: candidate } });
        tried.farmInvitation! += 1;
        if (farmLink.status !== 400)
          opened.push(`farm invitation ${farmInvitationId}/${candidate}: ${farmLink.status}`);
      })(),
      (async () => {
        // With a recovery code still unused: a live challenge would sign in.
        const challenge = await t.client().post('/api/user/login/second-factor/', {
          challenge: candidate,
          recoveryCode: recoveryCodes[1],
        });
        tried.secondFactorChallenge! += 1;
        if (challenge.status !== 401 && challenge.status !== 400) {
          opened.push(`second-factor challenge ${candidate}: ${challenge.status}`);
        }
      })(),
      (async () => {
        const refreshing = t.client();
        refreshing.cookies.set('refresh_token', candidate);
        const refresh = await refreshing.post('/api/user/refresh-token/');
        tried.refresh! += 1;
        if (refresh.status !== 401) opened.push(`refresh cookie ${candidate}: ${refresh.status}`);
      })(),
      (async () => {
        const bearer = await t.client().get('/api/user/', { headers: { authorization: `Bearer ${candidate}` } });
        tried.bearer! += 1;
        if (bearer.status !== 401) opened.push(`bearer ${candidate}: ${bearer.status}`);
      })(),
      (async () => {
        const local = await t.client().get('/api/backup/local/', { headers: { 'x-backup-token': candidate } });
        tried.localBackup! += 1;
        if (local.status !== 404) opened.push(`local backup ${candidate}: ${local.status}`);
      })(),
      (async () => {
        const controller = await t.app.devices.verify(machineId, candidate);
        tried.controller! += 1;
        if (controller === 'accepted') opened.push(`controller ${machineId}: ${candidate}`);
      })(),
    ];
    for (const candidate of candidates) await Promise.all(triesOf(candidate));
    expect(opened).toEqual([]);
    expect(tried.link).toBe(candidates.size * userIds.length);
    expect(tried.farmInvitation).toBe(candidates.size);
    expect(tried.secondFactorChallenge).toBe(candidates.size);
  });

  it('holds no key that signs an access token for a session it names', async () => {
    const candidates = new Set([...found.values()].flatMap((set) => [...set]));
    const sessions = (backup.rows.get('sessions') ?? []).map((row) => ({
      id: String(row.id),
      userId: Number(row.user_id),
    }));
    expect(sessions.length).toBeGreaterThanOrEqual(2);
    const opened: string[] = [];
    for (const key of candidates) {
      for (const session of sessions) {
        const forged = await new SignJWT({ sid: session.id })
          .setProtectedHeader({ alg: 'HS256' })
          .setSubject(String(session.userId))
          .setIssuer('pivot-dashboard')
          .setIssuedAt()
          .setExpirationTime('5m')
          .sign(new TextEncoder().encode(key));
        const answer = await t.client().get('/api/user/', { headers: { authorization: `Bearer ${forged}` } });
        if (answer.status !== 401) opened.push(`session ${session.id} with the key ${key}: ${answer.status}`);
      }
    }
    expect(opened).toEqual([]);
  });

  it('holds keys, secrets and hashes only in the columns docs/operations.md lists', async () => {
    const holding = new Set<string>();
    const columns = new Set<string>();
    for (const [table, rows] of backup.rows) {
      for (const row of rows) {
        for (const [column, value] of Object.entries(row)) {
          columns.add(`${table}.${column}`);
          const text = typeof value === 'string' ? value : JSON.stringify(value);
          if (secretLooking(text)) holding.add(`${table}.${column}`);
        }
      }
    }
    const documented = await documentedColumns();
    expect([...holding].filter((column) => !documented.has(column))).toEqual([]);
    // Nor does the list name a column the backup does not have (renamed, or removed).
    expect([...documented].filter((column) => !columns.has(column))).toEqual([]);
  });

  it('keeps a webhook’s secret only in its own row: the saved answer to adding it is sealed under its Idempotency-Key', async () => {
    const [saved] = backup.rows.get('idempotent_requests') ?? [];
    expect(saved).toBeDefined();
    expect(JSON.stringify(saved)).not.toContain(webhookSecret);
    expect(JSON.stringify(saved)).not.toContain(webhookRequest.idempotencyKey);
    // The repeat, with its key, still gets the first answer.
    const repeat = await remembered.post(
      '/api/account/webhooks/',
      { url: webhookRequest.url },
      { headers: { 'idempotency-key': webhookRequest.idempotencyKey } },
    );
    expect(repeat.headers['idempotent-replayed']).toBe('true');
    expect(repeat.body).toMatchObject({ secret: webhookSecret });
  });

  it('would have found a live one: the mailed link, the cookie and the access token do work', async () => {
    // The same tries with what the users themselves hold, so the test above cannot pass by trying wrongly.
    const mails = await t.outboxMails();
    const invitation = linkIn(
      mails.find((mail) => mail.includes('invited@farm.pl'))!,
      'activation',
    );
    const link = await t.client().post('/api/user/set-password/', {
      uid: invitation.uid,
      token: invitation.token,
      newPassword: REFUSED_PASSWORD,
      repeatNewPassword: REFUSED_PASSWORD,
    });
    expect(link.body).toMatchObject({ code: 'password_rejected' });
    const farmLink = linkIn(
      mails.find((mail) => mail.includes('farm.invited@farm.pl'))!,
      'invitation',
    );
    expect(farmLink.uid).toBe(farmInvitationId);
    const preview = await t.client().get(`/api/invitation/${farmLink.uid}/`, { query: { token: farmLink.token } });
    expect(preview.body).toMatchObject({ farmName: 'Farm that invites', email: 'farm.invited@farm.pl' });
    // The remembered browser skips the code; the waiting sign-in takes a recovery code.
    expect((await rememberedBrowser.login(guarded.email, USER_PASSWORD)).body).toHaveProperty('access');
    const waiting = await t.client().post('/api/user/login/second-factor/', {
      challenge: waitingChallenge,
      recoveryCode: recoveryCodes[1],
    });
    expect(waiting.body).toHaveProperty('access');
    const bearer = await t.client().get('/api/user/', { headers: { authorization: `Bearer ${remembered.access}` } });
    expect(bearer.status).toBe(200);
    const refreshing = t.client();
    refreshing.cookies.set('refresh_token', remembered.cookies.get('refresh_token')!);
    expect((await refreshing.post('/api/user/refresh-token/')).status).toBe(200);
    // And the live token did not come from the backup.
    const everything = JSON.stringify([...backup.rows]) + [...backup.files.values()].join('\n');
    expect(everything).not.toContain(invitation.token);
    expect(everything).not.toContain(farmLink.token);
    expect(everything).not.toContain(waitingChallenge);
    expect(everything).not.toContain(rememberedBrowser.cookies.get(REMEMBERED_BROWSER_COOKIE)!);
    for (const code of recoveryCodes) expect(everything).not.toContain(code);
  });
});
