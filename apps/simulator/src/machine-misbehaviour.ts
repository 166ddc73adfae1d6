import type { PivotMachine } from './pivot-machine';

/**
 * What a person or a test can make a running machine do wrong, for the server's incident
 * detection to catch (docs/simulator.md, "Misbehaving machines"). Each is a PivotMachine method.
 */
export const MACHINE_MISBEHAVIOURS = [
  'cut-water',
  'restore-water',
  'stop-unexpectedly',
  'freeze',
  'unfreeze',
  'drop-off',
  'come-back',
] as const;
export type MachineMisbehaviour = (typeof MACHINE_MISBEHAVIOURS)[number];

export const MACHINE_MISBEHAVIOUR_HELP: Readonly<Record<MachineMisbehaviour, string>> = {
  'cut-water': 'cut its water: low pressure and no flow while it moves, then its safety stops it (alarm pressure_loss)',
  'restore-water': 'give its water back (an alarm stays until a motion command)',
  'stop-unexpectedly': 'stop it with no command and no alarm, as a tripped tower safety does',
  freeze: 'hang its controller: silent and deaf to commands, its connection open (no last will)',
  unfreeze: 'bring a frozen controller back: it reports and answers commands again',
  'drop-off': 'cut its connection without a DISCONNECT: the broker publishes its last will (offline)',
  'come-back': 'reconnect after drop-off: presence online, its program and telemetry',
};

/** A misbehaviour the command line schedules: afterS seconds (real time) after the fleet started. */
export type ScheduledMisbehaviour = { machineId: string; kind: MachineMisbehaviour; afterS: number };

export function isMachineMisbehaviour(kind: string): kind is MachineMisbehaviour {
  return (MACHINE_MISBEHAVIOURS as readonly string[]).includes(kind);
}

/**
 * Makes the machine misbehave so, and resolves to a line for the person saying what happened,
 * or why nothing did (already so, not moving, not connected…). Never rejects.
 */
export async function misbehave(machine: PivotMachine, kind: MachineMisbehaviour): Promise<string> {
  const { id } = machine;
  const before = machine.state();
  try {
    switch (kind) {
      case 'cut-water':
        if (before.waterCut) return `${id}: its water is already cut`;
        machine.cutWater();
        return before.status === 'front' || before.status === 'back'
          ? `${id}: water cut; it moves on reporting low pressure and no flow until its low-pressure safety stops it (alarm pressure_loss)`
          : `${id}: water cut; it is at rest (${before.status}), so this shows once it is started`;
      case 'restore-water':
        if (!before.waterCut) return `${id}: its water is not cut`;
        machine.restoreWater();
        return machine.state().status === 'alarm'
          ? `${id}: water restored; it stays in alarm until a motion command starts or stops it`
          : `${id}: water restored`;
      case 'stop-unexpectedly':
        return machine.stopUnexpectedly()
          ? `${id}: stopped with no command (status stop, no alarm)`
          : `${id}: not moving (${machine.state().status}), nothing to stop`;
      case 'freeze':
        if (before.frozen) return `${id}: already frozen`;
        machine.freeze();
        return `${id}: frozen; it publishes nothing and answers no command, its connection open`;
      case 'unfreeze':
        if (!before.frozen) return `${id}: not frozen`;
        machine.unfreeze();
        return `${id}: unfrozen; it reports and answers commands again`;
      case 'drop-off':
        if (before.away) return `${id}: already dropped off`;
        await machine.dropOff();
        return `${id}: dropped off without a DISCONNECT; the broker publishes its last will (offline)`;
      case 'come-back':
        if (!before.away) return `${id}: has not dropped off`;
        await machine.comeBack();
        return `${id}: back, online again`;
    }
  } catch (error) {
    return `${id}: could not ${kind}: ${error instanceof Error ? error.message : String(error)}`;
  }
}
