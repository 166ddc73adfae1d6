import { createInterface } from 'node:readline';
import { CliError, USAGE, parseCliArgs } from './cli-options';
import { readCredentialsFile } from './credentials-file';
import { createDemoFleet } from './demo-fleet';
import { createFleet } from './fleet';
import { FleetConsole } from './fleet-console';
import { createLogger } from './logger';

let command;
try {
  command = parseCliArgs(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof CliError)) throw error;
  process.stderr.write(`${error.message}\n\n${USAGE}`);
  process.exit(2);
}
if (command.kind === 'help') {
  process.stdout.write(USAGE);
  process.exit(0);
}

const { options } = command;
const logger = createLogger(options.verbose ? 'debug' : 'info', (line) => process.stdout.write(line));
try {
  const fleetOptions = {
    brokerUrl: options.brokerUrl,
    seed: options.seed,
    timeScale: options.timeScale ?? undefined,
    idPrefix: options.idPrefix,
    clockOffsetMs: options.clockOffsetMs,
    pressureSafetyDelayMs: options.pressureSafetyS === null ? undefined : options.pressureSafetyS * 1000,
    credentials: options.credentialsFile === null ? undefined : await readCredentialsFile(options.credentialsFile),
    logger,
  };
  const fleet =
    options.machines === null
      ? createDemoFleet(fleetOptions)
      : createFleet({ ...fleetOptions, count: options.machines });
  const fleetConsole = new FleetConsole(fleet, (text) => process.stdout.write(`${text}\n`));
  const unknown = fleetConsole.unknownMachines(options.misbehave);
  if (unknown.length > 0) {
    process.stderr.write(`--misbehave: ${unknown.join('\n--misbehave: ')}\n`);
    process.exit(2);
  }
  await fleet.start();
  const cancelSchedule = fleetConsole.schedule(options.misbehave);
  const typed = createInterface({ input: process.stdin, terminal: false });
  typed.on('line', (line) => void fleetConsole.run(line));
  if (process.stdin.isTTY) process.stdout.write('Type help and press Enter to see how to make a machine misbehave.\n');

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    cancelSchedule();
    typed.close();
    logger.info('Stopping the fleet', { signal });
    fleet.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error('Could not stop cleanly', { error: String(error) });
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
