import { randomBytes } from 'node:crypto';
import path from 'node:path';
import {
  type Credentials,
  DEMO_MACHINES,
  type Fleet,
  demoProgramOn,
  type Logger,
  readCredentialsFile,
  simulateDemoHistory,
  startDemoFleet,
  writeCredentialsFile,
} from '@pivot/simulator';
import type { FastifyBaseLogger } from 'fastify';
import type { App } from '../app';
// The demo controllers' secrets: made at the first start, read at every later one, kept in backups.
import { DEMO_CREDENTIALS_FILE } from '../backup/backups';
import { seedDemoReports, seedDemoSeasons, seedDemoSoil, seedDemoWeather } from './demo-seasons';

export type DemoOptions = {
  email: string;
  password: string | undefined;
  /** Where the demo controllers' secrets are kept between starts, as a farmer keeps them in the controllers. */
  dataDir: string;
  print: (text: string) => void;
  /** The farmers' time zone: the demo's seasons are those in the field on its today. */
  timeZone: string;
};

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
 * Runs the demo fleet on the server's broker and makes it usable at once: each controller is
 * registered and given its secret, the machines are added (through the broker, as an
 * administrator would), with their fields, a program and crop seasons each, and granted to a
 * demo user. The farm's history up to now (its weather, its machines' passes, its probes' soil)
 * is simulated; at the first start its weather and reports are stored before the fleet reports,
 * so a new user sees a season with rain fallen and water applied. Already added machines are left
 * as they are.
 */
export async function startDemo(app: App, options: DemoOptions): Promise<Fleet> {
  const { db } = app.database;
  const admin = await app.users.findFirstAdmin();
  if (!admin) throw new Error('the demo needs an administrator');
  const credentials = await demoCredentials(app, admin, path.join(options.dataDir, DEMO_CREDENTIALS_FILE));
  const history = simulateDemoHistory(Date.now());
  // Added and answering, but reporting only once the history is stored: the water accounting
  // counts a machine's reports in order, and would pass over a history stored behind a live report.
  const fleet = await startDemoFleet({
    brokerUrl: app.mqttUrl,
    credentials,
    history,
    holdReports: true,
    logger: toServerLog(app.log),
  });
  const password = options.password ?? `${randomBytes(9).toString('base64url')}-Aa1!`;
  const created = await app.users.createActivated(
    { firstName: 'Demo', lastName: 'Rolnik', company: 'Gospodarstwo Demo', email: options.email, language: 'pl' },
    password,
  );
  const demoUser = (await app.users.findByEmail(options.email))!;
  const people = await demoPeople(app, options.email, password);
  const farms = await demoFarms(app, demoUser.id, people.neighbourId);
  const server = { ip: '', userAgent: null };
  const added: { sprinklerId: number; machineId: string }[] = [];

  for (const [index, machine] of DEMO_MACHINES.entries()) {
    let sprinkler = await app.sprinklers.findByMachineId(db, machine.id);
    if (!sprinkler) {
      const added = await app.sprinklers.create(admin, { internalId: machine.id, name: machine.name }, server);
      sprinkler = await app.sprinklers.setField(db, added.id, machine.areaMap);
    }
    if ((await app.programs.listFor(db, sprinkler.id)).length === 0) {
      // The program the fleet's machine runs: that of the history's last day (the fleet's own).
      const program = demoProgramOn(machine, new Date(history.to).toISOString().slice(0, 10));
      await app.programs.create(admin, sprinkler.id, program, server);
    }
    if (!(await app.access.farmOfMachine(db, sprinkler.id))) {
      const farm = index < DEMO_MACHINES.length - NEIGHBOURS_MACHINES ? farms.own : farms.neighbours;
      await app.access.placeMachine(db, sprinkler.id, farm.id);
    }
    await app.access.grant(db, sprinkler.id, demoUser.id);
    added.push({ sprinklerId: sprinkler.id, machineId: machine.id });
  }
  // The history first, then the seasons: a balance computed as soon as a season is there (and
  // kept for the day) already has its weather and water.
  const readings = await seedDemoWeather(app, history);
  const probeReadings = await seedDemoSoil(app, history);
  const reports = await seedDemoReports(app, history);
  await seedDemoSeasons(app, admin, added, options.timeZone);
  await demoDealer(app, people.technicianId, farms);
  fleet.startReporting();
  // The server's water-stress look at its start came before these seasons: without one now, a fresh
  // demo would show its stressed zones an hour late, and make every season's balance at that hour.
  app.waterStress.lookOnce().catch(() => undefined);
  app.log.info({ readings, probeReadings, reports }, 'demo history stored');

  if (created && !options.password) {
    options.print(
      `\nDemo user created (${DEMO_MACHINES.length} simulated machines).\n  email:    ${options.email}\n  password: ${password}\n` +
        `  The same password opens the neighbour who owns the second farm (${people.neighbourEmail}) and\n` +
        `  the dealer's technician who services both (${people.technicianEmail}).\n`,
    );
  }
  return fleet;
}

/**
 * The demo's people and organisations (docs/roles.md): two farms, the demo user owning the first
 * and managing the second (its owner a neighbour), and a dealer whose technician watches the first
 * and controls the second. The last machines of the fleet are the neighbour's.
 */
const DEMO_FARM = 'Gospodarstwo Demo';
const NEIGHBOURS_FARM = 'Gospodarstwo Sąsiada';
const NEIGHBOURS_MACHINES = 2;
const DEMO_DEALER = 'Agro Serwis Demo';

/** The neighbour and the dealer's technician, at the demo user's domain, with the demo's password. */
async function demoPeople(app: App, demoEmail: string, password: string) {
  const domain = demoEmail.slice(demoEmail.indexOf('@'));
  const neighbourEmail = `sasiad${domain}`;
  const technicianEmail = `serwis${domain}`;
  for (const [email, firstName, lastName, company] of [
    [neighbourEmail, 'Jan', 'Sąsiad', NEIGHBOURS_FARM],
    [technicianEmail, 'Piotr', 'Serwisant', DEMO_DEALER],
  ] as const) {
    await app.users.createActivated({ firstName, lastName, company, email, language: 'pl' }, password);
  }
  const idOf = async (email: string) => (await app.users.findByEmail(email))!.id;
  return {
    neighbourEmail,
    technicianEmail,
    neighbourId: await idOf(neighbourEmail),
    technicianId: await idOf(technicianEmail),
  };
}

async function demoFarms(app: App, demoUserId: number, neighbourId: number) {
  const { db } = app.database;
  const farmNamed = async (name: string) => {
    const farm =
      (await app.access.farmsOf(db, demoUserId, true)).find((listed) => listed.name === name) ??
      (await app.access.createFarm(db, name));
    if (!farm) throw new Error(`the demo's farm "${name}" could not be made`);
    return farm;
  };
  const own = await farmNamed(DEMO_FARM);
  const neighbours = await farmNamed(NEIGHBOURS_FARM);
  await app.access.addMember(db, own.id, demoUserId, 'owner');
  await app.access.addMember(db, neighbours.id, neighbourId, 'owner');
  await app.access.addMember(db, neighbours.id, demoUserId, 'manager');
  return { own, neighbours };
}

async function demoDealer(app: App, technicianId: number, farms: Awaited<ReturnType<typeof demoFarms>>) {
  const { db } = app.database;
  const dealer =
    (await app.access.dealers(db)).find((listed) => listed.name === DEMO_DEALER) ??
    (await app.access.createDealer(db, DEMO_DEALER));
  if (!dealer) throw new Error(`the demo's dealer "${DEMO_DEALER}" could not be made`);
  await app.access.addDealerMember(db, dealer.id, technicianId);
  const granted = await app.access.dealerGrantsOfFarm(db, farms.own.id);
  if (granted.some((grant) => grant.dealerId === dealer.id)) return;
  for (const [farm, level] of [
    [farms.own, 'watch'],
    [farms.neighbours, 'control'],
  ] as const) {
    await app.access.saveDealerGrant(db, {
      farmId: farm.id,
      dealerId: dealer.id,
      level,
      machineIds: 'all',
      expiresAt: null,
    });
  }
}

type Administrator = NonNullable<Awaited<ReturnType<App['users']['findFirstAdmin']>>>;

/**
 * The secrets kept from an earlier start where they still open the broker; a new secret for a
 * controller whose secret was lost (a new data folder over an old database), and a first one
 * for a controller not registered yet.
 */
async function demoCredentials(app: App, admin: Administrator, file: string): Promise<Credentials> {
  const kept = await readCredentialsFile(file).catch(() => ({}) as Credentials);
  const credentials: Credentials = {};
  const server = { ip: '', userAgent: null };
  for (const { id } of DEMO_MACHINES) {
    const secret = kept[id];
    const verdict =
      secret !== undefined ? await app.devices.verify(id, secret) : app.devices.admits(id) ? 'refused' : 'unknown';
    if (verdict === 'accepted') credentials[id] = secret!;
    else if (verdict === 'refused') credentials[id] = (await app.devices.replaceSecret(admin, id, server)).secret;
    else credentials[id] = (await app.devices.register(admin, id, server)).secret;
  }
  await writeCredentialsFile(file, credentials);
  return credentials;
}
