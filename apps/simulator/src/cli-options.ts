import { parseArgs } from 'node:util';
import { TopicIdSchema } from '@pivot/contracts';
import { MACHINE_MISBEHAVIOURS, type ScheduledMisbehaviour, isMachineMisbehaviour } from './machine-misbehaviour';
import { MAX_PRESSURE_SAFETY_DELAY_MS } from './pivot-arm';
import { MAX_CLOCK_OFFSET_MS } from './unique-clock';

export type CliOptions = {
  brokerUrl: string;
  /** null with --demo, which runs its own five machines. */
  machines: number | null;
  seed: number;
  /** null: the default, 1 (real time), the demo's too. */
  timeScale: number | null;
  idPrefix: string;
  /** How far the machines' clocks are off, ms (ahead when positive). */
  clockOffsetMs: number;
  /** A JSON file of machine ID to secret; null: the machines connect without credentials. */
  credentialsFile: string | null;
  /** Simulated seconds a machine runs with its water cut before its safety stops it; null: the default, 30. */
  pressureSafetyS: number | null;
  /** Misbehaviours to set off while the fleet runs, in the order given. */
  misbehave: ScheduledMisbehaviour[];
  verbose: boolean;
};

export type CliCommand = { kind: 'help' } | { kind: 'run'; options: CliOptions };

export const USAGE = `Usage: npm run simulator -- --broker <url> (--machines <n> | --demo) [options]

  --broker <url>       MQTT broker, such as mqtt://localhost:1883 (mqtt, mqtts, tcp, tls, ws, wss)
  --machines <n>       how many machines to simulate, 1–10000, each with a weather station and soil probes
  --demo               run the five demo machines instead, in real time, carrying on from their farm's history
  --seed <s>           seed for every random choice, a whole number (default 1)
  --time-scale <k>     simulated minutes per real minute, above 0 and at most 1000 (default 1)
  --id-prefix <p>      put before every ID, to run several fleets on one broker (A–Z a–z 0–9 _ -)
  --clock-offset-ms=<ms>
                       set the machines' clocks this far ahead, or behind when negative (default 0),
                       to see what a controller with a wrong clock does with commands
  --credentials <file> each controller's secret: a JSON object of machine ID to secret, as the
                       administrator registered them (docs/simulator.md); a secured broker
                       refuses machines without one
  --misbehave <machine>:<kind>[@<seconds>]
                       make a machine misbehave that many seconds after the fleet started (at once
                       without @); repeat for more. Kinds: ${MACHINE_MISBEHAVIOURS.join(', ')}.
                       Such as --misbehave PIVOT-02:cut-water@30 --misbehave PIVOT-02:restore-water@90
  --pressure-safety-s <s>
                       simulated seconds a machine runs with its water cut before its low-pressure
                       safety stops it (default 30; divided by the time scale in real time)
  --verbose            log every command and misbehaviour
  --help               show this help

While it runs, type a command and press Enter to make a machine misbehave, such as
"freeze PIVOT-02" or "drop-off SIM-0003"; "help" lists them.
`;

const BROKER_PROTOCOLS = new Set(['mqtt:', 'mqtts:', 'tcp:', 'tls:', 'ws:', 'wss:']);
const ID_PREFIX_PATTERN = /^[A-Za-z0-9_-]{0,40}$/;

/** A command line that cannot run; the message says what to change. */
export class CliError extends Error {}

export function parseCliArgs(args: string[]): CliCommand {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        broker: { type: 'string' },
        machines: { type: 'string' },
        demo: { type: 'boolean', default: false },
        seed: { type: 'string' },
        'time-scale': { type: 'string' },
        'id-prefix': { type: 'string', default: '' },
        'clock-offset-ms': { type: 'string' },
        credentials: { type: 'string' },
        misbehave: { type: 'string', multiple: true, default: [] },
        'pressure-safety-s': { type: 'string' },
        verbose: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return { kind: 'help' };
  if (values.demo && values.machines !== undefined) throw new CliError('Give either --machines or --demo, not both');
  if (!values.demo && values.machines === undefined) throw new CliError('Give --machines <n> or --demo');
  if (!ID_PREFIX_PATTERN.test(values['id-prefix'])) {
    throw new CliError('--id-prefix may hold up to 40 of the characters A–Z a–z 0–9 _ -');
  }
  return {
    kind: 'run',
    options: {
      brokerUrl: brokerUrl(values.broker),
      machines: values.machines === undefined ? null : wholeNumber('--machines', values.machines, 1, 10_000),
      seed: values.seed === undefined ? 1 : wholeNumber('--seed', values.seed, 0, 2 ** 32 - 1),
      timeScale: values['time-scale'] === undefined ? null : timeScale(values['time-scale']),
      idPrefix: values['id-prefix'],
      clockOffsetMs: values['clock-offset-ms'] === undefined ? 0 : clockOffset(values['clock-offset-ms']),
      credentialsFile: values.credentials ?? null,
      pressureSafetyS: values['pressure-safety-s'] === undefined ? null : pressureSafety(values['pressure-safety-s']),
      misbehave: values.misbehave.map(scheduledMisbehaviour),
      verbose: values.verbose,
    },
  };
}

function brokerUrl(value: string | undefined): string {
  if (value === undefined) throw new CliError('Give the broker with --broker, such as --broker mqtt://localhost:1883');
  const url = URL.canParse(value) ? new URL(value) : null;
  if (!url || !BROKER_PROTOCOLS.has(url.protocol)) {
    throw new CliError(`--broker must be a URL such as mqtt://localhost:1883, not "${value}"`);
  }
  return value;
}

function wholeNumber(option: string, value: string, min: number, max: number): number {
  const number = Number(value);
  if (!/^\d+$/.test(value) || number < min || number > max) {
    throw new CliError(`${option} must be a whole number from ${min} to ${max}, not "${value}"`);
  }
  return number;
}

function clockOffset(value: string): number {
  const number = Number(value);
  if (!/^-?\d+$/.test(value) || Math.abs(number) > MAX_CLOCK_OFFSET_MS) {
    throw new CliError(
      `--clock-offset-ms must be a whole number of ms from -${MAX_CLOCK_OFFSET_MS} to ${MAX_CLOCK_OFFSET_MS}, such as --clock-offset-ms=-10000, not "${value}"`,
    );
  }
  return number;
}

function timeScale(value: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number <= 0 || number > 1000) {
    throw new CliError(`--time-scale must be a number above 0 and at most 1000, not "${value}"`);
  }
  return number;
}

function pressureSafety(value: string): number {
  const number = Number(value);
  const max = MAX_PRESSURE_SAFETY_DELAY_MS / 1000;
  if (value.trim() === '' || !Number.isFinite(number) || number < 0 || number > max) {
    throw new CliError(`--pressure-safety-s must be a number of seconds from 0 to ${max}, not "${value}"`);
  }
  return number;
}

/** The longest wait a schedule may set: a week. */
const MAX_MISBEHAVE_AFTER_S = 7 * 24 * 3600;
const MISBEHAVE_PATTERN = /^(?<machineId>[^:@]*):(?<kind>[^:@]*)(?:@(?<after>.*))?$/;

function scheduledMisbehaviour(value: string): ScheduledMisbehaviour {
  const parts = MISBEHAVE_PATTERN.exec(value)?.groups;
  if (!parts) {
    throw new CliError(
      `--misbehave must be <machine>:<kind>[@<seconds>], such as --misbehave PIVOT-02:freeze@30, not "${value}"`,
    );
  }
  const { machineId, kind, after } = parts as { machineId: string; kind: string; after?: string };
  if (!TopicIdSchema.safeParse(machineId).success) {
    throw new CliError(`--misbehave "${value}": "${machineId}" is not a machine ID (1–64 of A–Z a–z 0–9 _ -)`);
  }
  if (!isMachineMisbehaviour(kind)) {
    throw new CliError(
      `--misbehave "${value}": no misbehaviour "${kind}"; the kinds are ${MACHINE_MISBEHAVIOURS.join(', ')}`,
    );
  }
  const afterS = after === undefined ? 0 : Number(after);
  if (
    after !== undefined &&
    (after.trim() === '' || !Number.isFinite(afterS) || afterS < 0 || afterS > MAX_MISBEHAVE_AFTER_S)
  ) {
    throw new CliError(
      `--misbehave "${value}": the seconds after @ must be a number from 0 to ${MAX_MISBEHAVE_AFTER_S}, not "${after}"`,
    );
  }
  return { machineId, kind, afterS };
}
