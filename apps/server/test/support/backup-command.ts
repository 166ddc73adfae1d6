import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SERVER_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** `npm run backup` / `npm run restore`'s source, run as the scripts run it. */
export const BACKUP_COMMAND = path.join(SERVER_ROOT, 'src', 'backup-command.ts');
const TSX = path.join(SERVER_ROOT, '..', '..', 'node_modules', '.bin', 'tsx');

/**
 * Runs the backup command (`backup …` or `restore …`) on the embedded database of `dataDir` as an
 * operator would, and gives its exit code and what it told them. English unless `locale` says
 * otherwise, whatever the locale of the machine running the tests: the cases match its words.
 */
export function runBackupCommand(
  args: string[],
  options: { dataDir: string; passphrase: string; locale?: NodeJS.ProcessEnv },
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(TSX, [BACKUP_COMMAND, ...args], {
      env: {
        ...process.env,
        LC_ALL: '',
        LC_MESSAGES: '',
        ...(options.locale ?? { LANG: 'C.UTF-8' }),
        DATA_DIR: options.dataDir,
        DATABASE_URL: '',
        BACKUP_PASSPHRASE: options.passphrase,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code) => resolve({ code, stderr }));
  });
}
