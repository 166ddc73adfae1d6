import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { SprinklerDetailSchema, SprinklerListItemSchema } from '@pivot/contracts';
import pg from 'pg';
import { inject, onTestFinished } from 'vitest';
import { HttpSession } from '../../support/http-session';
import { startMosquitto } from '../../support/mosquitto-process';
import { type ServerProcess, freePort, scratchDatabase, startServer } from '../../support/server-process';

const ADMIN = { email: 'chaos-admin@pivot.test', password: 'Chaos-Admin-Password-1!' } as const;

/** How long a command waits for its machine: short, so that abandoned commands settle soon (30 s past it). */
export const COMMAND_TIMEOUT_MS = 3000;

/**
 * The environment every server of the suite runs with: a first administrator to drive the API,
 * no demo fleet (its machines would only add load), short command timeouts.
 */
export const SERVER_ENV = {
  ADMIN_EMAIL: ADMIN.email,
  ADMIN_PASSWORD: ADMIN.password,
  DEMO_FLEET: 'false',
  COMMAND_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS),
} as const;

export async function signInAsAdmin(server: ServerProcess): Promise<HttpSession> {
  const admin = new HttpSession(server.baseUrl);
  await admin.login(ADMIN.email, ADMIN.password);
  return admin;
}

/** Adds a connected machine by its ID, as an administrator does (the server asks it to identify); its API id. */
export async function addMachine(admin: HttpSession, machineId: string): Promise<number> {
  const response = await admin.call('POST', '/api/sprinkler/', { internalId: machineId });
  if (response.status !== 201) {
    throw new Error(`adding ${machineId}: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return SprinklerListItemSchema.parse(response.body).id;
}

/** Polls until the condition holds or the time is up; whether it held. */
export async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Until the server has stored the report with this sequence number (a ReportingController's
 * `flow`): the machine's state is the newest report stored. Whether it got there in time.
 */
export function untilStored(admin: HttpSession, sprinklerId: number, sequence: number, timeoutMs: number) {
  return until(async () => {
    const response = await admin.call('GET', `/api/sprinkler/${sprinklerId}/`);
    return response.status === 200 && SprinklerDetailSchema.parse(response.body).flow === sequence;
  }, timeoutMs);
}

/**
 * Runs a query on the server's database: PostgreSQL at any time; the embedded PGlite only once
 * the server has stopped, since PGlite is a single process's.
 */
export async function queryDatabase<Row>(server: ServerProcess, text: string, values: unknown[]): Promise<Row[]> {
  if (server.databaseUrl) {
    const client = new pg.Client({ connectionString: server.databaseUrl });
    await client.connect();
    try {
      return (await client.query(text, values)).rows as Row[];
    } finally {
      await client.end();
    }
  }
  const database = new PGlite(path.join(server.dataDir, 'pglite'));
  try {
    return (await database.query<Row>(text, values)).rows;
  } finally {
    await database.close();
  }
}

/** The timestamps (ms) of the machine's reports in the database. */
export async function storedReports(server: ServerProcess, machineId: string): Promise<Set<number>> {
  const rows = await queryDatabase<{ ts: Date }>(server, 'select ts from telemetry where machine_id = $1', [machineId]);
  return new Set(rows.map((row) => row.ts.getTime()));
}

/**
 * The product as `npm start` runs it: embedded broker (on a port the controllers can find again
 * after a restart) and PGlite; `env` adds to SERVER_ENV.
 */
export async function startEmbeddedProduct(
  env: Record<string, string> = {},
): Promise<{ server: ServerProcess; brokerUrl: string }> {
  const server = await startServer({ ...SERVER_ENV, ...env, DATABASE_URL: '', MQTT_PORT: String(await freePort()) });
  onTestFinished(() => server.stop());
  return { server, brokerUrl: server.mqttUrl! };
}

/**
 * The product on services of its own: a private Mosquitto and a scratch PostgreSQL database,
 * with as many instances as asked for (`env` per instance: SERVER_ID…), started one after another.
 */
export async function startProductOnMosquitto(instances: Record<string, string>[] = [{}]) {
  const mosquitto = await startMosquitto();
  onTestFinished(() => mosquitto.dispose());
  const database = await scratchDatabase(inject('chaosPostgresUrl'));
  onTestFinished(() => database.drop());
  const servers: ServerProcess[] = [];
  for (const env of instances) {
    const server = await startServer({ ...SERVER_ENV, MQTT_URL: mosquitto.url, DATABASE_URL: database.url, ...env });
    onTestFinished(() => server.stop());
    servers.push(server);
  }
  return { mosquitto, servers, brokerUrl: mosquitto.url };
}
