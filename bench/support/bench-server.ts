import { randomBytes } from 'node:crypto';
import { access, cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { HttpSession } from '@pivot/e2e/support/http-session';
import type { App } from '@pivot/server/src/app';
import { launchServer } from '@pivot/server/src/launch';
import { PasswordHasher } from '@pivot/server/src/modules/users/password-hasher';
import { insertUser } from '@pivot/server/src/modules/users/users.repository';
import type { UserRow } from '@pivot/server/src/modules/users/users.table';
import type { Credentials } from '@pivot/simulator';
import pg from 'pg';
import type { BenchOptions } from './cli';
import { onAbort } from './run';

export const ADMIN_EMAIL = 'admin@pivot.bench';
export const USER_PASSWORD = 'Bench-Password-1';

export type BenchServer = {
  app: App;
  /** http://127.0.0.1:port, the listening API. */
  baseUrl: string;
  /** The server's data folder (a temporary one), where its mail outbox is written. */
  dataDir: string;
  /** Which broker and database the server runs on, for the printed title. */
  setting: { broker: string; database: string };
  /** Whether the broker is a shared one, which keeps what machines leave there after the run. */
  external: { broker: boolean };
  /** A session signed in as the first administrator. */
  signInAdmin: () => Promise<HttpSession>;
  /** Registers the controllers as an administrator does and returns their secrets by machine ID. */
  registerControllers: (machineIds: readonly string[]) => Promise<Credentials>;
  /** An activated ordinary user with USER_PASSWORD, stored straight in the database. */
  createUser: () => Promise<UserRow>;
  signIn: (email: string) => Promise<HttpSession>;
  close: () => Promise<void>;
};

/** A database of its own on the given PostgreSQL server, so that a benchmark leaves nothing behind. */
async function createScratchDatabase(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `pivot_bench_${randomBytes(5).toString('hex')}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}

export type ServerSetup = {
  /**
   * A built web app (a folder with index.html) to serve as `npm start` does; by default the API
   * alone is served. The server serves a copy in its data folder, so that a build that someone
   * starts in the same tree during the run does not swap the files under the pages measured.
   */
  webApp?: string;
};

/**
 * The real server in this process, as `npm start` builds it, listening on a free loopback port:
 * embedded aedes and PGlite by default, or the broker and PostgreSQL of the options.
 */
export async function startBenchServer(options: BenchOptions, setup: ServerSetup = {}): Promise<BenchServer> {
  if (setup.webApp !== undefined) {
    await access(path.join(setup.webApp, 'index.html')).catch(() => {
      throw new Error(`no built web app in ${setup.webApp} (npm run build -w @pivot/web)`);
    });
  }
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pivot-bench-'));
  const webDir = path.join(dataDir, setup.webApp === undefined ? 'no-web-app' : 'web');
  const scratch = await (async () => {
    if (setup.webApp !== undefined) await cp(setup.webApp, webDir, { recursive: true });
    return options.database ? await createScratchDatabase(options.database) : undefined;
  })().catch(async (error: unknown) => {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  });
  const adminPassword = `${randomBytes(12).toString('base64url')}-Aa1!`;
  const env = {
    LOG_LEVEL: 'silent',
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    DEMO_FLEET: 'false',
    ADMIN_EMAIL,
    ADMIN_PASSWORD: adminPassword,
    // Unless a built web app is given, the API alone is measured: no web app to serve.
    WEB_DIST_DIR: webDir,
    // A benchmark measures what it names: a season of past reports is not packed under it.
    TELEMETRY_PACK_AFTER_DAYS: '36500',
    // A benchmark never calls the internet: no weather forecast for the advice.
    FORECAST_URL: 'off',
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    // Never 1883 for the embedded broker: Mosquitto listens there. On a shared broker the
    // subscription group is this run's own, so no other server instance takes its messages.
    ...(options.broker
      ? { MQTT_URL: options.broker, MQTT_SHARED_GROUP: `bench-${randomBytes(4).toString('hex')}` }
      : { MQTT_PORT: '0', MQTT_HOST: '127.0.0.1' }),
  };
  const removeScratch = async () => {
    await scratch?.drop();
    await rm(dataDir, { recursive: true, force: true });
  };
  const forgetAbort = onAbort(removeScratch);
  const launched = await launchServer({ env, listen: true, print: () => undefined }).catch(async (error: unknown) => {
    await removeScratch();
    throw error;
  });
  const { app, database, baseUrl } = launched;
  let users = 0;

  const signIn = async (email: string, password = USER_PASSWORD) => {
    const session = new HttpSession(baseUrl);
    await session.login(email, password);
    return session;
  };
  let userPasswordHash: Promise<string> | undefined;
  return {
    app,
    baseUrl,
    dataDir,
    setting: {
      broker: options.broker ? `${options.broker} (shared)` : `embedded aedes (${app.mqttUrl})`,
      database: scratch ? `PostgreSQL, scratch database on ${options.database}` : `embedded PGlite in ${dataDir}`,
    },
    external: { broker: options.broker !== undefined },
    signInAdmin: () => signIn(ADMIN_EMAIL, adminPassword),
    registerControllers: async (machineIds) => {
      const admin = (await app.users.findFirstAdmin())!;
      const server = { ip: '', userAgent: null };
      const credentials: Credentials = {};
      // Fifty at a time: one after another, the 9,900 of bench:farms took most of its 15 minutes.
      for (let start = 0; start < machineIds.length; start += 50) {
        await Promise.all(
          machineIds.slice(start, start + 50).map(async (id) => {
            credentials[id] = (await app.devices.register(admin, id, server)).secret;
          }),
        );
      }
      return credentials;
    },
    createUser: async () => {
      users += 1;
      return insertUser(database.db, {
        firstName: 'Bench',
        lastName: `User ${users}`,
        email: `user${users}@pivot.bench`,
        passwordHash: await (userPasswordHash ??= new PasswordHasher().hash(USER_PASSWORD)),
        activatedAt: new Date(),
      });
    },
    signIn: (email) => signIn(email),
    close: async () => {
      forgetAbort();
      await launched.close();
      await removeScratch();
    },
  };
}
