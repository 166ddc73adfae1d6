import { TopicIdSchema } from '@pivot/contracts';
import type { Fleet } from './fleet';
import {
  MACHINE_MISBEHAVIOURS,
  MACHINE_MISBEHAVIOUR_HELP,
  type MachineMisbehaviour,
  type ScheduledMisbehaviour,
  isMachineMisbehaviour,
  misbehave,
} from './machine-misbehaviour';
import type { PivotMachine } from './pivot-machine';

/** A line typed at the simulator while it runs. */
export type ConsoleCommand =
  | { kind: 'nothing' }
  | { kind: 'help' }
  | { kind: 'status'; machineId: string | null }
  | { kind: 'misbehave'; misbehaviour: MachineMisbehaviour; machineId: string };

/** A typed line that means nothing; the message says what to type instead. */
export class ConsoleError extends Error {}

const COLUMN = 28;
/** A status listing stops here: ten thousand lines help nobody. */
const STATUS_LIMIT = 20;

export const CONSOLE_HELP = [
  'Type a command and press Enter:',
  ...MACHINE_MISBEHAVIOURS.map((kind) => `  ${`${kind} <machine>`.padEnd(COLUMN)}${MACHINE_MISBEHAVIOUR_HELP[kind]}`),
  `  ${'status [<machine>]'.padEnd(COLUMN)}show the machines (or one machine): status, angle, what is wrong`,
  `  ${'help'.padEnd(COLUMN)}show this help`,
  '<machine> is a machine ID, such as PIVOT-02 or SIM-0001; the --id-prefix may be left out.',
].join('\n');

/** Reads one typed line; throws a ConsoleError saying what is wrong with it. */
export function parseConsoleLine(line: string): ConsoleCommand {
  const [first, ...rest] = line.trim().split(/\s+/).filter(Boolean);
  if (first === undefined) return { kind: 'nothing' };
  const word = first.toLowerCase();
  if (word === 'help' || word === '?') return { kind: 'help' };
  if (word === 'status') {
    if (rest.length > 1) throw new ConsoleError('status takes at most one machine ID, such as status PIVOT-02');
    return { kind: 'status', machineId: rest[0] === undefined ? null : machineId(rest[0]) };
  }
  if (!isMachineMisbehaviour(word)) {
    throw new ConsoleError(`Unknown command "${shorten(first)}"; type help to see the commands`);
  }
  if (rest[0] === undefined)
    throw new ConsoleError(`Which machine? Type ${word} <machine ID>, such as ${word} PIVOT-02`);
  if (rest.length > 1) throw new ConsoleError(`${word} takes one machine ID, such as ${word} PIVOT-02`);
  return { kind: 'misbehave', misbehaviour: word, machineId: machineId(rest[0]) };
}

function machineId(word: string): string {
  if (!TopicIdSchema.safeParse(word).success) {
    throw new ConsoleError(`"${shorten(word)}" is not a machine ID: 1–64 characters of A–Z a–z 0–9 _ -`);
  }
  return word;
}

function shorten(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/**
 * Carries out what a person types while the simulator runs, and what the command line scheduled,
 * one at a time, on a running fleet. Writes a line for each; never throws.
 */
export class FleetConsole {
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly fleet: Fleet,
    private readonly write: (text: string) => void,
  ) {}

  /** Carries out a typed line once those before it are done. */
  run(line: string): Promise<void> {
    return this.enqueue(() => this.carryOut(line));
  }

  /** Lines saying which machines of the schedule the fleet does not have; empty when it has them all. */
  unknownMachines(schedule: readonly ScheduledMisbehaviour[]): string[] {
    const unknown = [...new Set(schedule.map((entry) => entry.machineId))].filter((id) => !this.fleet.machine(id));
    return unknown.map((id) => this.noSuchMachine(id));
  }

  /** Starts the clock on each scheduled misbehaviour; returns a function that cancels those still to come. */
  schedule(schedule: readonly ScheduledMisbehaviour[]): () => void {
    const timers = schedule.map((entry) =>
      setTimeout(() => {
        void this.enqueue(async () => {
          const machine = this.fleet.machine(entry.machineId);
          if (!machine) return this.write(this.noSuchMachine(entry.machineId));
          this.write(`(scheduled at ${entry.afterS} s) ${await misbehave(machine, entry.kind)}`);
        });
      }, entry.afterS * 1000),
    );
    return () => timers.forEach(clearTimeout);
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    const next = this.queue.then(task).catch((error: unknown) => {
      this.write(`Could not do that: ${error instanceof Error ? error.message : String(error)}`);
    });
    this.queue = next;
    return next;
  }

  private async carryOut(line: string): Promise<void> {
    let command: ConsoleCommand;
    try {
      command = parseConsoleLine(line);
    } catch (error) {
      if (!(error instanceof ConsoleError)) throw error;
      return this.write(error.message);
    }
    switch (command.kind) {
      case 'nothing':
        return;
      case 'help':
        return this.write(CONSOLE_HELP);
      case 'status': {
        if (command.machineId === null) return this.write(this.listing());
        const machine = this.fleet.machine(command.machineId);
        return this.write(machine ? describe(machine) : this.noSuchMachine(command.machineId));
      }
      case 'misbehave': {
        const machine = this.fleet.machine(command.machineId);
        return this.write(
          machine ? await misbehave(machine, command.misbehaviour) : this.noSuchMachine(command.machineId),
        );
      }
    }
  }

  private listing(): string {
    const { machines } = this.fleet;
    const lines = machines.slice(0, STATUS_LIMIT).map(describe);
    if (machines.length > STATUS_LIMIT) {
      lines.push(`… and ${machines.length - STATUS_LIMIT} more; type status <machine> for one of them`);
    }
    return lines.join('\n');
  }

  private noSuchMachine(id: string): string {
    const ids = this.fleet.machines.map((machine) => machine.id);
    const known = ids.length <= 6 ? ids.join(', ') : `${ids[0]} … ${ids.at(-1)}`;
    return `No machine "${shorten(id)}" in this fleet; its machines are ${known}`;
  }
}

/** One machine on one line: its status, where its arm is, and what is wrong with it. */
function describe(machine: PivotMachine): string {
  const state = machine.state();
  const troubles = [
    state.alarm ? `alarm ${state.alarm}` : null,
    state.waterCut ? 'water cut' : null,
    state.frozen ? 'frozen' : null,
    state.away ? 'dropped off' : state.connected ? null : 'not connected',
  ].filter((trouble) => trouble !== null);
  return [state.id, state.status, `${state.angle.toFixed(1)}°`, ...troubles].join('  ');
}
