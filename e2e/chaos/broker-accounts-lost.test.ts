import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, inject, it, onTestFinished } from 'vitest';
import { startPrivateMosquitto } from '../../apps/server/test/support/private-mosquitto';
import { registerController, uniqueMachineId } from '../support/controllers';
import { scratchDatabase, startServer } from '../support/server-process';
import { recordFigures } from './support/figures';
import { lostReports } from './support/ingestion';
import { SERVER_ENV, addMachine, queryDatabase, signInAsAdmin, until } from './support/product';
import { ReportingController } from './support/reporting-controller';

const repositoryRoot = fileURLToPath(new URL('../..', import.meta.url));
const FLEET = 20;
/** Each controller's reports a second: the fleet's 200 a second keep reports in flight at the kill. */
const RATE = 10;
/** How long the fleet reports before the kill, while accounts change. */
const BEFORE_KILL_MS = 2000;

/** `npm run broker:reprovision` with this environment: its exit code and what it printed. */
function reprovision(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/broker-reprovision-command.ts'], {
      cwd: repositoryRoot,
      env: { PATH: process.env.PATH, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

/** Whether the plugin's file still holds every account of these controllers. */
async function holdsAccounts(dynsecFile: string, machineIds: readonly string[]): Promise<boolean> {
  try {
    const { clients } = JSON.parse(await readFile(dynsecFile, 'utf8')) as { clients: { username: string }[] };
    const kept = new Set(clients.map((client) => client.username));
    return machineIds.every((machineId) => kept.has(machineId));
  } catch {
    return false;
  }
}

/**
 * Issue 39: Mosquitto 2.0.11 rewrites its dynamic-security file in place at each account change,
 * and a kill at the wrong moment leaves it empty. A fleet reports through a private Mosquitto set
 * up as docs/operations.md says (the server's account in the password_file), accounts change in a
 * loop, Mosquitto gets SIGKILL; if the file survived the kill it is emptied, as a kill may leave
 * it; Mosquitto starts again. The server gives every controller its account back with its own
 * secret, the fleet reconnects within a minute with what it has, and every report the broker
 * acknowledged is stored. `npm run broker:reprovision` runs meanwhile beside the server.
 */
it('m. Mosquitto loses its accounts file: every controller back with its old secret within a minute, no acknowledged report lost', async () => {
  const persistence = await mkdtemp(path.join(os.tmpdir(), 'pivot-chaos-persistence-'));
  onTestFinished(() => rm(persistence, { recursive: true, force: true }));
  const mosquitto = await startPrivateMosquitto(
    [
      'persistence true',
      `persistence_location ${persistence}/`,
      'autosave_interval 5',
      'max_queued_messages 100000',
      'persistent_client_expiration 1h',
      'set_tcp_nodelay true',
    ],
    { serverAccount: true },
  );
  onTestFinished(() => mosquitto.stop());
  const database = await scratchDatabase(inject('chaosPostgresUrl'));
  onTestFinished(() => database.drop());
  const productEnv = {
    MQTT_URL: mosquitto.url,
    MQTT_USERNAME: mosquitto.server!.username,
    MQTT_PASSWORD: mosquitto.server!.password,
    MQTT_DEVICE_AUTH: 'mosquitto-dynsec',
    DEVICE_SECRET_KEY: randomBytes(32).toString('base64url'),
    DATABASE_URL: database.url,
  };
  // One instance on plain subscriptions: Mosquitto 2.0 restores no shared subscription after its restart.
  const server = await startServer({ ...SERVER_ENV, ...productEnv, MQTT_SHARED_GROUP: '' });
  onTestFinished(() => server.stop());
  const admin = await signInAsAdmin(server);

  const fleet: ReportingController[] = [];
  for (let i = 0; i < FLEET; i++) {
    const machineId = uniqueMachineId('CHAOS-ACCOUNTS');
    const controller = await ReportingController.connect(
      mosquitto.url,
      machineId,
      await registerController(admin, machineId),
    );
    onTestFinished(() => controller.end());
    await addMachine(admin, machineId);
    fleet.push(controller);
  }
  const fleetIds = fleet.map((controller) => controller.machineId);
  for (const controller of fleet) controller.startStream(RATE);

  // Account changes, each a rewrite of the plugin's whole file, until the broker is killed.
  let changing = true;
  let changes = 0;
  const churn = (async () => {
    while (changing) {
      const machineId = uniqueMachineId('CHAOS-CHURN');
      const registered = await admin.call('POST', '/api/device/', { machineId });
      if (registered.status === 201) {
        changes += 1;
        if ((await admin.call('DELETE', `/api/device/${machineId}/`)).status === 204) changes += 1;
      }
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, BEFORE_KILL_MS));

  let foundDamaged = false;
  const killedAt = Date.now();
  await mosquitto.restart('SIGKILL', async () => {
    changing = false;
    foundDamaged = !(await holdsAccounts(mosquitto.dynsecFile, fleetIds));
    if (!foundDamaged) await writeFile(mosquitto.dynsecFile, '');
  });
  const backAt = Date.now();
  await churn;
  // The operator's command, beside the server's own look started by the broker's return.
  const command = reprovision({ ...productEnv, DATA_DIR: persistence });
  const fleetBack = await until(() => fleet.every((controller) => controller.connected), 60_000);
  const fleetBackMs = Date.now() - backAt;
  const { code, output } = await command;
  expect(fleetBack, 'every controller connected again within a minute').toBe(true);

  await new Promise((resolve) => setTimeout(resolve, 1000));
  for (const controller of fleet) controller.stopStream();
  for (const controller of fleet) await controller.allAcknowledged(60_000);
  let lost = 0;
  for (const controller of fleet) lost += (await lostReports(server, controller)).length;
  const acknowledged = fleet.reduce((sum, controller) => sum + controller.acknowledged.size, 0);
  const told = await queryDatabase<{ event: string; details: string }>(
    server,
    "select event, details from log_entries where event_type = 'broker_accounts_lost' order by id",
    [],
  );
  const accountsLost = told.reduce((sum, entry) => sum + Number(entry.event), 0);
  const restored = told.reduce((sum, entry) => sum + Number(entry.details), 0);
  const commandFigures = output.trim().split('\n').slice(-3).join('; ').replace(/\s+/g, ' ');

  await recordFigures(inject('chaosFiguresDir'), {
    key: 'm',
    scenario: `m. Mosquitto's accounts file lost (dynsec), ${FLEET} controllers`,
    reportsAcknowledged: acknowledged,
    reportsLost: lost,
    note: [
      `${changes} account changes before the kill`,
      foundDamaged ? 'the kill left the file damaged' : 'the file survived the kill and was emptied',
      `accounts lost ${accountsLost}, restored ${restored} (the server's log)`,
      fleetBack
        ? `every controller back ${(fleetBackMs / 1000).toFixed(1)} s after the broker (${((backAt - killedAt) / 1000).toFixed(1)} s down)`
        : 'the fleet was not back within a minute',
      `broker:reprovision exit ${code}: ${commandFigures}`,
    ].join(', '),
  });
  expect(lost, 'acknowledged reports lost').toBe(0);
  expect(accountsLost, 'accounts the broker lost (the whole fleet, and the churn)').toBeGreaterThanOrEqual(FLEET);
  expect(restored, 'accounts made again').toBe(accountsLost);
  expect(code, output).toBe(0);
  expect(output).toMatch(/cannot be given back: {2}0/);
});
