import { randomBytes } from 'node:crypto';
import { DEMO_MACHINES, type Fleet, type Logger, startDemoFleet } from '@pivot/simulator';
import type { FastifyBaseLogger } from 'fastify';
import type { App } from '../app';

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
  const admin = await app.users.findFirstAdmin();
  if (!admin) throw new Error('the demo needs an administrator');
  const password = options.password ?? `${randomBytes(9).toString('base64url')}-Aa1!`;
  const created = await app.users.createActivated(
    { firstName: 'Demo', lastName: 'Rolnik', company: 'Gospodarstwo Demo', email: options.email, language: 'pl' },
    password,
  );
  const demoUser = (await app.users.findByEmail(options.email))!;
  const server = { ip: '', userAgent: null };

  for (const machine of DEMO_MACHINES) {
    let sprinkler = await app.sprinklers.findByMachineId(db, machine.id);
    if (!sprinkler) {
      const added = await app.sprinklers.create(admin, { internalId: machine.id, name: machine.name }, server);
      sprinkler = await app.sprinklers.setField(db, added.id, machine.areaMap);
    }
    if ((await app.programs.listFor(db, sprinkler.id)).length === 0) {
      await app.programs.create(admin, sprinkler.id, machine.program, server);
    }
    await app.access.grant(db, sprinkler.id, demoUser.id);
  }

  if (created && !options.password) {
    options.print(
      `\nDemo user created (${DEMO_MACHINES.length} simulated machines).\n  email:    ${options.email}\n  password: ${password}\n`,
    );
  }
  return fleet;
}
