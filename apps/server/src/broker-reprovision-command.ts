import pino from 'pino';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/client';
import { MosquittoDynamicSecurity } from './gateway/mosquitto-dynamic-security';
import { readLocalBackupEndpoint } from './modules/backups';
import { BrokerAccountRestoration, DeviceSecretBox, deviceSecretKey } from './modules/devices';

/*
 * `npm run broker:reprovision` (docs/operations.md, "When the broker loses its accounts"): makes
 * again on the configured broker every registered controller's account it lacks, with the
 * controller's own secret. It reads the server's environment (DATABASE_URL, DATA_DIR, MQTT_*,
 * DEVICE_SECRET_KEY) and may run beside running servers and twice at once: one process restores
 * at a time (an advisory lock), an existing account is left alone.
 */

const PROGRESS_EVERY_MS = 1000;
/** While another process restores, this one asks again this often, then finds what is left. */
const BUSY_RETRY_MS = 1000;

class CommandError extends Error {}

async function main(): Promise<void> {
  const config = loadConfig();
  if (config.mqttDeviceAuth !== 'mosquitto-dynsec' || !config.mqttUrl) {
    const broker = config.mqttUrl ? `MQTT_DEVICE_AUTH=${config.mqttDeviceAuth}` : 'The embedded broker';
    process.stdout.write(`${broker}: the server keeps no accounts on this broker, so there are none to give back.\n`);
    return;
  }
  if (!config.databaseUrl && (await readLocalBackupEndpoint(config.dataDir))) {
    throw new CommandError(
      `A server is running on ${config.dataDir} (PGlite is one process's): use Admin → Machines → Controllers → "Restore broker accounts", or stop it first.`,
    );
  }
  const key = await deviceSecretKey(config.deviceSecretKey, config.dataDir, { make: false }).catch((error: Error) => {
    throw new CommandError(error.message);
  });
  const box = new DeviceSecretBox(key);
  const logger = pino({ level: 'warn' });
  const database = await openDatabase(config);
  let accounts: MosquittoDynamicSecurity | undefined;
  try {
    accounts = await MosquittoDynamicSecurity.connect({
      url: config.mqttUrl,
      ...config.mqttServerCredentials,
      clientId: `${config.mqttServerCredentials.username}-${config.serverId}-reprovision`,
      logger,
    });
    const restoration = new BrokerAccountRestoration({
      db: database.db,
      databaseKind: database.kind,
      accounts,
      box,
      logger,
    });
    const progress = setInterval(() => {
      const now = restoration.progress();
      if (now) process.stdout.write(`restoring: ${now.done} of ${now.total}\n`);
    }, PROGRESS_EVERY_MS);
    let check = await restoration.run();
    if (check === 'busy') process.stdout.write('another server or command is restoring the accounts: waiting for it\n');
    while (check === 'busy') {
      await new Promise((resolve) => setTimeout(resolve, BUSY_RETRY_MS));
      check = await restoration.run();
    }
    clearInterval(progress);
    process.stdout.write(
      [
        `missing on the broker: ${check.missing}`,
        `made again:            ${check.restored}`,
        `cannot be given back:  ${check.unrestorable.length}${check.unrestorable.length > 0 ? ` (${check.unrestorable.join(', ')}): give each a new secret` : ''}`,
        '',
      ].join('\n'),
    );
    if (check.unrestorable.length > 0) process.exitCode = 2;
  } finally {
    await accounts?.close();
    await database.close();
  }
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (error: unknown) => {
    const plain = error instanceof CommandError || error instanceof ConfigError;
    process.stderr.write(`${plain ? (error as Error).message : String((error as Error)?.stack ?? error)}\n`);
    process.exit(1);
  },
);
