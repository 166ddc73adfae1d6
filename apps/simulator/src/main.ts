import { CliError, USAGE, parseCliArgs } from './cli-options';
import { readCredentialsFile } from './credentials-file';
import { startDemoFleet } from './demo-fleet';
import { startFleet } from './fleet';
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
    credentials: options.credentialsFile === null ? undefined : await readCredentialsFile(options.credentialsFile),
    logger,
  };
  const fleet =
    options.machines === null
      ? await startDemoFleet(fleetOptions)
      : await startFleet({ ...fleetOptions, count: options.machines });
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
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
