import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../support/server-process';
import { ADMIN, SERVER_ENV } from './environment';

const repositoryRoot = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * Builds the web app and starts one real server for the whole run (as `npm start` does, on a
 * fresh data folder); the tests find it through the environment.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  execFileSync('npm', ['run', 'build', '-w', '@pivot/web', '--', '--logLevel', 'warn'], {
    cwd: repositoryRoot,
    stdio: 'inherit',
  });
  const server = await startServer({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
  process.env[SERVER_ENV.baseUrl] = server.baseUrl;
  process.env[SERVER_ENV.dataDir] = server.dataDir;
  return server.stop;
}
