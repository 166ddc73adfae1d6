import { parseArgs } from 'node:util';
import { MAX_CLOCK_OFFSET_MS } from './unique-clock';

export type CliOptions = {
  brokerUrl: string;
  /** null with --demo, which runs its own five machines. */
  machines: number | null;
  seed: number;
  /** null: the default, 1, or 20 with --demo. */
  timeScale: number | null;
  idPrefix: string;
  /** How far the machines' clocks are off, ms (ahead when positive). */
  clockOffsetMs: number;
  /** A JSON file of machine ID to secret; null: the machines connect without credentials. */
  credentialsFile: string | null;
  verbose: boolean;
};

export type CliCommand = { kind: 'help' } | { kind: 'run'; options: CliOptions };

export const USAGE = `Usage: npm run simulator -- --broker <url> (--machines <n> | --demo) [options]

  --broker <url>       MQTT broker, such as mqtt://localhost:1883 (mqtt, mqtts, tcp, tls, ws, wss)
  --machines <n>       how many machines to simulate, 1–10000, each with a weather station and soil probes
  --demo               run the five demo machines instead (20 times faster than life by default)
  --seed <s>           seed for every random choice, a whole number (default 1)
  --time-scale <k>     simulated minutes per real minute, above 0 and at most 1000 (default 1)
  --id-prefix <p>      put before every ID, to run several fleets on one broker (A–Z a–z 0–9 _ -)
  --clock-offset-ms=<ms>
                       set the machines' clocks this far ahead, or behind when negative (default 0),
                       to see what a controller with a wrong clock does with commands
  --credentials <file> each controller's secret: a JSON object of machine ID to secret, as the
                       administrator registered them (docs/simulator.md); a secured broker
                       refuses machines without one
  --verbose            log every command and misbehaviour
  --help               show this help
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
