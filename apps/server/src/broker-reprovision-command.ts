import type { Language } from '@pivot/contracts';
import pino from 'pino';
import { BackupFileError } from './backup/backup-file';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/client';
import { MosquittoDynamicSecurity } from './gateway/mosquitto-dynamic-security';
import { readLocalBackupEndpoint } from './modules/backups';
import { commandLanguage, languageOption } from './i18n/command-language';
import { operatorMessage } from './i18n/messages';
import { BrokerAccountRestoration } from './modules/devices';
import { SecretBox, sealingKey } from './secret-box';

/*
 * `npm run broker:reprovision` (docs/operations.md, "When the broker loses its accounts"): makes
 * again on the configured broker every registered controller's account it lacks, with the
 * controller's own secret. It reads the server's environment (DATABASE_URL, DATA_DIR, MQTT_*,
 * DEVICE_SECRET_KEY) and may run beside running servers and twice at once: one process restores
 * at a time (an advisory lock), an existing account is left alone. It speaks Polish or English as
 * command-line programs choose (LC_ALL, LC_MESSAGES, LANG), unless told `--lang pl|en`.
 */

const PROGRESS_EVERY_MS = 1000;
/** While another process restores, this one asks again this often, then finds what is left. */
const BUSY_RETRY_MS = 1000;

/** The device secret key cannot be read: its own words say which file and what to do. */
class CommandError extends Error {}

async function main(language: Language): Promise<void> {
  const config = loadConfig();
  if (config.mqttDeviceAuth !== 'mosquitto-dynsec' || !config.mqttUrl) {
    const nothingToDo = config.mqttUrl
      ? operatorMessage('reprovision_no_accounts_kept', language, { deviceAuth: config.mqttDeviceAuth })
      : operatorMessage('reprovision_embedded_broker', language);
    process.stdout.write(`${nothingToDo}\n`);
    return;
  }
  if (!config.databaseUrl && (await readLocalBackupEndpoint(config.dataDir))) {
    throw new BackupFileError('reprovision_server_running', { dataDir: config.dataDir });
  }
  const key = await sealingKey(config.deviceSecretKey, config.dataDir, { make: false }).catch((error: Error) => {
    throw new CommandError(error.message);
  });
  const box = new SecretBox(key, 'device');
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
      if (now) process.stdout.write(`${operatorMessage('reprovision_progress', language, now)}\n`);
    }, PROGRESS_EVERY_MS);
    let check = await restoration.run();
    if (check === 'busy') process.stdout.write(`${operatorMessage('reprovision_waiting', language)}\n`);
    while (check === 'busy') {
      await new Promise((resolve) => setTimeout(resolve, BUSY_RETRY_MS));
      check = await restoration.run();
    }
    clearInterval(progress);
    process.stdout.write(`${operatorMessage('reprovision_summary', language, check)}\n`);
    if (check.unrestorable.length > 0) process.exitCode = 2;
  } finally {
    await accounts?.close();
    await database.close();
  }
}

const language = commandLanguage(languageOption(process.argv.slice(2)), process.env);
main(language).then(
  () => process.exit(process.exitCode ?? 0),
  (error: unknown) => {
    const plain = error instanceof CommandError || error instanceof ConfigError;
    const message =
      error instanceof BackupFileError
        ? error.messageIn(language)
        : plain
          ? (error as Error).message
          : String((error as Error)?.stack ?? error);
    process.stderr.write(`${message}\n`);
    process.exit(1);
  },
);
