import type { Locator } from '@playwright/test';
import {
  type MisbehaviourKind,
  PivotMachine,
  type PivotMachineOptions,
  type ProgramUpload,
  silentLogger,
} from '@pivot/simulator';
import { registerController as registerControllerAs, uniqueMachineId } from '../../support/controllers';
import { HttpSession } from '../../support/http-session';
import { ADMIN, brokerFromEnvironment, serverFromEnvironment } from './environment';
import { type TestUser, test as base, expect, signIn } from './fixtures';

export type { MisbehaviourKind, PivotMachine, ProgramUpload };
export { uniqueMachineId };

/**
 * A simulated machine of a test's own, on the test server's broker. Anything of the simulator's
 * options may be given (position, arm length, speed, program, misbehaviour shares…); the rest
 * has defaults that suit a test: an unused ID, a field near the demo fleet, quick reports.
 */
export type MachineOptions = Partial<Omit<PivotMachineOptions, 'brokerUrl'>> & {
  /** How the machine answers the first command it gets: late (after it expired), missing, malformed, duplicate. */
  misbehaveNext?: MisbehaviourKind;
};

let administrator: Promise<HttpSession> | undefined;

/** Registers the controller through the API as the test server's administrator, and returns its secret. */
async function registerController(machineId: string): Promise<string> {
  administrator ??= (async () => {
    const session = new HttpSession(serverFromEnvironment().baseUrl);
    await session.login(ADMIN.email, ADMIN.password);
    return session;
  })();
  return registerControllerAs(await administrator, machineId);
}

/**
 * Registers a simulated machine's controller, connects it to the test server's broker with its
 * secret and waits until it is online. It is not added to the server: a test adds it by its ID
 * (as an administrator does), or leaves it unknown. Whoever starts it stops it; the
 * `startMachine` fixture does that after each test.
 */
export async function startMachine(options: MachineOptions = {}): Promise<PivotMachine> {
  const { misbehaveNext, ...machineOptions } = options;
  const id = machineOptions.id ?? uniqueMachineId();
  const machine = new PivotMachine({
    brokerUrl: brokerFromEnvironment(),
    id,
    secret: machineOptions.secret ?? (await registerController(id)),
    name: `Symulator ${id}`,
    lat: 52.21,
    lng: 17.25,
    armLength: 300,
    movingTelemetryMs: 1000,
    restingTelemetryMs: 5000,
    programProcessingMs: 500,
    logger: silentLogger,
    ...machineOptions,
  });
  await machine.start();
  if (misbehaveNext) machine.misbehaveNext(misbehaveNext);
  return machine;
}

/** Adds a machine by its broker ID as the administrator does, and grants it to the user when one is given. */
export async function addAndGrant(admin: HttpSession, machine: PivotMachine, name: string, userId?: number) {
  const added = await admin.call('POST', '/api/sprinkler/', { internalId: machine.id, name });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  const id = (added.body as { id: number }).id;
  if (userId !== undefined) {
    const granted = await admin.call('PATCH', `/api/sprinkler/${id}/permissions/`, { user: userId, action: 'grant' });
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
  }
  return id;
}

/** A machine's page as a test of its live state opens it: whose it is, the machine, and its status region. */
export type OpenMachine = { farmer: TestUser; machine: PivotMachine; id: number; status: Locator };

/** What a machine's page calls its status region and an online machine, in each language. */
const MACHINE_PAGE = { pl: { status: 'Stan', online: 'Połączona' }, en: { status: 'Status', online: 'Online' } };

type MachineFixtures = {
  /** Starts a simulated machine (see startMachine) that goes offline when the test ends. */
  startMachine: (options?: MachineOptions) => Promise<PivotMachine>;
  /**
   * Gives a new user (Polish unless told) a machine of their own, named `name`, moving forward;
   * runs `beforeOpening` (a program stored, say), then signs the user in on the machine's page and
   * waits until it shows the machine online.
   */
  openMovingMachine: (
    name: string,
    options?: { language?: 'pl' | 'en'; beforeOpening?: (id: number) => Promise<void> },
  ) => Promise<OpenMachine>;
};

/** The browser tests' `test`, with simulated machines. */
export const test = base.extend<MachineFixtures>({
  startMachine: async ({}, use) => {
    const running: PivotMachine[] = [];
    await use(async (options) => {
      const machine = await startMachine(options);
      running.push(machine);
      return machine;
    });
    await Promise.all(running.map((machine) => machine.stop()));
  },
  openMovingMachine: async ({ page, admin, createUser, startMachine }, use) => {
    await use(async (name, { language = 'pl', beforeOpening } = {}) => {
      const farmer = await createUser({ language });
      const machine = await startMachine({ motion: 'front' });
      const id = await addAndGrant(admin, machine, name, farmer.id);
      await beforeOpening?.(id);
      await signIn(page, farmer, `${language === 'pl' ? '' : `/${language}`}/sprinklers/${id}`);
      const status = page.getByRole('region', { name: MACHINE_PAGE[language].status });
      await expect(status).toContainText(MACHINE_PAGE[language].online);
      return { farmer, machine, id, status };
    });
  },
});
