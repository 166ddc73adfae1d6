import { randomBytes } from 'node:crypto';
import { DEMO_MACHINES, type Fleet, type Logger, startDemoFleet } from '@pivot/simulator';
import type { FastifyBaseLogger } from 'fastify';
import type { App } from '../app';
import { countPrograms } from '../modules/programs/programs.repository';
import { findSprinklerByInternalId, grantAccess, updateSprinkler } from '../modules/sprinklers/sprinklers.repository';
import { findFirstAdmin, findUserByEmail, insertUserIfAbsent } from '../modules/users/users.repository';

export type DemoOptions = { email: string; password: string | undefined; print: (text: string) => void };

/** The simulator's log lines go to the server's log. */
function toServerLog(log: FastifyBaseLogger): Logger {
  return {
    debug: (message, fields) => log.debug(fields ?? {}, message),
    info: (message, fields) => log.info(fields ?? {}, message),
    warn: (message, fields) => log.warn(fields ?? {}, message),
    error: (message, fields) => log.error(fields ?? {}, message),
  };
}

/**
 * Runs the demo fleet on the server's broker and makes it usable at once: the machines are
 * added (through the broker, as an administrator would), with their fields and a program each,
 * and granted to a demo user. Already added machines are left as they are.
 */
export async function startDemo(app: App, options: DemoOptions): Promise<Fleet> {
  const fleet = await startDemoFleet({ brokerUrl: app.mqttUrl, logger: toServerLog(app.log) });
  const { db } = app.database;
  const admin = await findFirstAdmin(db);
  if (!admin) throw new Error('the demo needs an administrator');
  const password = options.password ?? `${randomBytes(9).toString('base64url')}-Aa1!`;
  const created = await insertUserIfAbsent(db, {
    firstName: 'Demo',
    lastName: 'Rolnik',
    company: 'Gospodarstwo Demo',
    email: options.email,
    language: 'pl',
    passwordHash: await app.services.hasher.hash(password),
    activatedAt: new Date(),
  });
  const demoUser = (await findUserByEmail(db, options.email))!;
  const server = { ip: '', userAgent: null };

  for (const machine of DEMO_MACHINES) {
    let sprinkler = await findSprinklerByInternalId(db, machine.id);
    if (!sprinkler) {
      const added = await app.services.sprinklers.create(admin, { internalId: machine.id, name: machine.name }, server);
      sprinkler = (await updateSprinkler(db, added.id, { areaMap: machine.areaMap }))!;
    }
    if ((await countPrograms(db, sprinkler.id)) === 0) {
      await app.services.programs.create(admin, sprinkler.id, machine.program, server);
    }
    await grantAccess(db, sprinkler.id, demoUser.id);
  }

  if (created && !options.password) {
    options.print(
      `\nDemo user created (${DEMO_MACHINES.length} simulated machines).\n  email:    ${options.email}\n  password: ${password}\n`,
    );
  }
  return fleet;
}
