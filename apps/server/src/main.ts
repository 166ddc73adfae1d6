import { setFlagsFromString } from 'node:v8';
import type { Fleet } from '@pivot/simulator';
import { ConfigError } from './config';
import { JournalLockedError } from './gateway/receipt-journal';
import { startDemo } from './demo/demo-fleet';
import { launchServer } from './launch';

/**
 * How far V8 lets its heap grow past what was live at its last full collection, percent. Left to
 * itself, a server allocating fast (a fleet's reports and live streams) lets it grow up to four
 * times: at 10,000 machines 325 MB of heap held 86 MB in use, and the server's RSS passed 500 MB.
 * At 50 % it stayed at 302 MB for 3 points of a core more (docs/scaling.md, "Memory"). V8 reads
 * the flag at each collection, so setting it as the server starts acts as the command line's; a
 * value given on the command line (`npm start`'s, for a small box) is left as it is.
 */
const HEAP_GROWING_PERCENT = 50;
if (!process.execArgv.some((argument) => argument.startsWith('--heap-growing-percent'))) {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

/** Errors a person can act on get one plain line; anything else keeps its stack. */
function describeStartFailure(error: unknown): string {
  if (error instanceof ConfigError || error instanceof JournalLockedError) return error.message;
  if (error instanceof Error && 'code' in error && error.code === 'EADDRINUSE' && 'port' in error) {
    return `Port ${String(error.port)} is already in use. Set PORT (web and API) or MQTT_PORT (embedded broker) to a free port, or MQTT_URL to use the broker that is running there.`;
  }
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

async function main(): Promise<void> {
  const { app, config, database, close } = await launchServer({
    env: process.env,
    listen: true,
    onConnectionError: (error) => process.stderr.write(`database connection lost: ${error.message}\n`),
  });
  let fleet: Fleet | undefined;

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      app.log.info({ signal }, 'shutting down');
      (fleet?.stop() ?? Promise.resolve()).then(close).then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }

  if (config.demoFleet) {
    fleet = await startDemo(app, {
      email: config.demoEmail,
      password: config.demoPassword,
      dataDir: config.dataDir,
      timeZone: config.timeZone,
      print: (text) => process.stdout.write(text),
    });
  }
  const where = database.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL at DATABASE_URL';
  const broker = config.mqttUrl ? 'MQTT_URL' : `embedded broker, port ${config.mqttPort}`;
  process.stdout.write(
    [
      '',
      `Pivot dashboard is running at ${config.publicUrl}`,
      `  database: ${where}`,
      `  machines: ${broker}${fleet ? `, with ${fleet.machines.length} simulated machines (demo user ${config.demoEmail})` : ''}`,
      `  mail:     ${app.mail.description}`,
      `  API docs: ${config.publicUrl}/api/docs`,
      '',
      '',
    ].join('\n'),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${describeStartFailure(error)}\n`);
  process.exit(1);
});
