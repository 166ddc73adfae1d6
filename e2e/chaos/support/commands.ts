import { PivotMachine, type PivotMachineOptions, silentLogger } from '@pivot/simulator';
import { onTestFinished } from 'vitest';
import { registerController, uniqueMachineId } from '../../support/controllers';
import type { HttpSession } from '../../support/http-session';
import type { ServerProcess } from '../../support/server-process';
import { CommandWitness } from './command-witness';
import { addMachine, queryDatabase, until } from './product';

/** What the activity log says when a motion command ends, whichever way. */
export const MOTION_EVENTS = ['sprinkler_motion_success', 'sprinkler_motion_failure'];

/**
 * A simulated pivot, registered, connected and added, with a witness of the commands it carries
 * out; `options` as the simulator takes them (its program, where its arm stands…).
 */
export async function startWitnessedMachine(
  admin: HttpSession,
  brokerUrl: string,
  prefix: string,
  options: Partial<Omit<PivotMachineOptions, 'brokerUrl' | 'id' | 'secret'>> = {},
) {
  const machineId = uniqueMachineId(prefix);
  const witness = new CommandWitness(machineId);
  const machine = new PivotMachine({
    brokerUrl,
    id: machineId,
    secret: await registerController(admin, machineId),
    lat: 52.32,
    lng: 17.04,
    armLength: 300,
    logger: silentLogger,
    ...options,
  });
  machine.speakFor(witness);
  await machine.start();
  onTestFinished(() => machine.stop());
  const sprinklerId = await addMachine(admin, machineId);
  // A user presses a button once the page shows the machine online; until the server has stored
  // its presence (slower while other scenarios load the machine), a command is refused as offline.
  const online = await until(async () => {
    const detail = await admin.call('GET', `/api/sprinkler/${sprinklerId}/`);
    return (detail.body as { online?: boolean } | undefined)?.online === true;
  }, 30_000);
  if (!online) throw new Error(`${machineId} was not seen online within 30 s`);
  return { machine, machineId, witness, sprinklerId };
}

/**
 * The stored motion commands of a machine and how the activity log told of their end. A command
 * has no recorded outcome when it is still pending, or when the log tells of fewer commands'
 * ends than there are commands.
 */
export async function motionRecords(server: ServerProcess, machineId: string) {
  const records = await queryDatabase<{ outcome: string }>(
    server,
    `select outcome from machine_commands where machine_id = $1 and type = 'motion'`,
    [machineId],
  );
  const logged = await queryDatabase<{ event_type: string; details: string }>(
    server,
    'select event_type, details from log_entries where sprinkler_internal_id = $1 and event_type = any($2)',
    [machineId, MOTION_EVENTS],
  );
  return {
    outcomes: records.map((record) => record.outcome),
    logged: logged.map((entry) => `${entry.event_type} "${entry.details}"`),
    withoutOutcome:
      records.filter((record) => record.outcome === 'pending').length + Math.max(0, records.length - logged.length),
  };
}
