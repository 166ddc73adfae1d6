import type https from 'node:https';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { App } from '../../src/app';
import type { DatabaseHandle } from '../../src/db/client';
import { launchServer } from '../../src/launch';
import { PasswordHasher } from '../../src/modules/users/password-hasher';
import { insertUser } from '../../src/modules/users/users.repository';
import type { NewUserRow, UserRow } from '../../src/modules/users/users.table';
import { beforeAll } from 'vitest';
import { ApiClient } from './api-client';
import { createTestDatabase } from './database';

export const ADMIN_EMAIL = 'admin@pivot.test';
export const ADMIN_PASSWORD = 'Admin-Password-1';
export const USER_PASSWORD = 'User-Password-1';
export const PUBLIC_URL = 'http://pivot.test';

export type TestApp = {
  app: App;
  database: DatabaseHandle;
  dataDir: string;
  client: (ip?: string) => ApiClient;
  /** A signed-in client for the first administrator. */
  adminClient: () => Promise<ApiClient>;
  /** Creates an activated user with USER_PASSWORD straight in the database. */
  buildUser: (overrides?: Partial<NewUserRow>) => Promise<UserRow>;
  /** Builds a user as buildUser does and signs them in: the user and their client. */
  signedInUser: (overrides?: Partial<NewUserRow>) => Promise<{ user: UserRow; client: ApiClient }>;
  /** Sends the queued mail and returns the files of the outbox folder, oldest first. */
  outboxMails: () => Promise<string[]>;
  close: () => Promise<void>;
};

let userCounter = 0;
const hasher = new PasswordHasher();
let userPasswordHash: Promise<string> | undefined;

/**
 * Machines talk to the embedded broker, or to the real one at TEST_MQTT_URL (Mosquitto in CI).
 * On a shared broker each app takes a subscription group of its own, so that two apps never split
 * one machine's reports between them, and a clean session. Every app there still hears every
 * machine: the suite runs one file at a time on it (scripts/test.sh).
 */
function brokerSettings(): Record<string, string> {
  const url = process.env.TEST_MQTT_URL;
  if (!url) return { MQTT_PORT: '0', MQTT_HOST: '127.0.0.1' };
  // A kept session would outlive the test and collect other tests' reports on the shared broker.
  return {
    MQTT_URL: url,
    MQTT_SHARED_GROUP: `test-${randomBytes(4).toString('hex')}`,
    MQTT_SESSION_EXPIRY_SECONDS: '0',
  };
}

/** The real app over a fresh database and data folder, as `npm start` builds it. */
export async function createTestApp(
  env: Record<string, string> = {},
  options: {
    database?: DatabaseHandle;
    /**
     * The agent that trusts a local push service's certificate (startPushService): outbound
     * requests trust its certificate, and 127.0.0.1 is allowed unless OUTBOUND_ALLOWED_HOSTS says otherwise.
     */
    pushAgent?: https.Agent;
  } = {},
): Promise<TestApp> {
  const ownDatabase = !options.database;
  const database = options.database ?? (await createTestDatabase());
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pivot-test-'));
  const outboundCa = options.pushAgent?.options.ca;
  const { app } = await launchServer({
    env: {
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      ...brokerSettings(),
      COMMAND_TIMEOUT_MS: '3000',
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      PUBLIC_URL,
      WEB_DIST_DIR: path.join(dataDir, 'no-web-app'),
      ...(options.pushAgent ? { OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' } : {}),
      // Tests store reports of past dates and read their rows: nothing is packed unless a test packs it.
      TELEMETRY_PACK_AFTER_DAYS: '36500',
      // Tests never call the internet: a test of the forecast points FORECAST_URL at a local server.
      FORECAST_URL: 'off',
      ...env,
    },
    database,
    print: () => undefined,
    ...(typeof outboundCa === 'string' || Buffer.isBuffer(outboundCa) ? { outboundCa } : {}),
  });
  const outboxFolder = path.join(dataDir, 'outbox');

  const buildUser = async (overrides: Partial<NewUserRow> = {}) => {
    userCounter += 1;
    userPasswordHash ??= hasher.hash(USER_PASSWORD);
    return insertUser(database.db, {
      firstName: 'Jan',
      lastName: `Kowalski ${userCounter}`,
      email: `user${userCounter}-${Date.now()}@pivot.test`,
      passwordHash: await userPasswordHash,
      activatedAt: new Date(),
      ...overrides,
    });
  };

  return {
    app,
    database,
    dataDir,
    client: (ip) => new ApiClient(app, ip),
    adminClient: async () => {
      const client = new ApiClient(app);
      await client.login(ADMIN_EMAIL, ADMIN_PASSWORD);
      return client;
    },
    buildUser,
    signedInUser: async (overrides = {}) => {
      const user = await buildUser(overrides);
      const client = new ApiClient(app);
      await client.login(user.email, USER_PASSWORD);
      return { user, client };
    },
    outboxMails: async () => {
      await app.mail.drain();
      const files = (await readdir(outboxFolder).catch(() => [])).filter((file) => file.endsWith('.eml')).sort();
      const mails = await Promise.all(files.map((file) => readFile(path.join(outboxFolder, file), 'utf8')));
      return mails.map(undoQuotedPrintableBreaks);
    },
    close: async () => {
      await app.close();
      if (ownDatabase) await database.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Long lines of a quoted-printable mail are folded with "=" at the line end, and "=" itself is written =3D. */
function undoQuotedPrintableBreaks(mail: string): string {
  return mail.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
}

/** The link of the given kind in a mail, with its user id and token. */
export function linkIn(mail: string, kind: 'activation' | 'set-password' | 'invitation') {
  const match = new RegExp(`${PUBLIC_URL}(/en)?/${kind}/(\\d+)/([A-Za-z0-9_-]+)`).exec(mail);
  if (!match) throw new Error(`no ${kind} link in mail:\n${mail}`);
  return { url: match[0], uid: Number(match[2]), token: match[3]!, english: match[1] === '/en' };
}

/** A test file's app with its first administrator signed in. */
export type TestAppWithAdmin = TestApp & { admin: ApiClient };

/**
 * The set-up most test files share: one app for the whole file (createTestApp's), built before
 * its first test and closed after its last, with the administrator signed in when asked. Read it
 * inside tests and hooks only: it stands for the app that beforeAll builds.
 */
export function useTestApp(env: Record<string, string>, options: { signInAdmin: true }): TestAppWithAdmin;
export function useTestApp(env?: Record<string, string>): TestApp;
export function useTestApp(
  env: Record<string, string> = {},
  { signInAdmin = false }: { signInAdmin?: boolean } = {},
): TestApp | TestAppWithAdmin {
  let current: TestApp | TestAppWithAdmin | undefined;
  beforeAll(async () => {
    const t = await createTestApp(env);
    try {
      current = signInAdmin ? { ...t, admin: await t.adminClient() } : t;
    } catch (error) {
      await t.close();
      throw error;
    }
    return () => t.close();
  });
  return new Proxy({} as TestAppWithAdmin, {
    get: (_, key) => {
      if (!current) throw new Error('the test file app is built in beforeAll: read it inside a test or a hook');
      return Reflect.get(current, key);
    },
  });
}
