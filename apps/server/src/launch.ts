import { type App, type BuildAppOptions, buildApp } from './app';
import { type Config, loadConfig } from './config';
import { type DatabaseHandle, openDatabase } from './db/client';

export type LaunchOptions = {
  /** The environment the configuration is read from, as `npm start` reads process.env. */
  env: NodeJS.ProcessEnv;
  /** An open database to run on (it stays open on close); by default the one the configuration names. */
  database?: DatabaseHandle;
  /** Listens on the configuration's PORT and HOST; otherwise the app only answers app.inject(). */
  listen?: boolean;
  /** Called when a PostgreSQL connection of the server's own database fails after start. */
  onConnectionError?: (error: Error) => void;
} & Pick<BuildAppOptions, 'print' | 'outboundCa'>;

export type LaunchedServer = {
  app: App;
  config: Config;
  database: DatabaseHandle;
  /** http://host:port once it listens; null for an app that answers app.inject() only. */
  baseUrl: string | null;
  /** Closes the app, then its database unless it was given one: the modules store what they hold first. */
  close: () => Promise<void>;
};

/**
 * Starts the server on the given configuration, as `npm start` does: the one way main.ts, the
 * tests, the benchmarks and the browser tests' server come to a running app, so that what they
 * run is what ships.
 */
export async function launchServer(
  options: LaunchOptions & { listen: true },
): Promise<LaunchedServer & { baseUrl: string }>;
export async function launchServer(options: LaunchOptions): Promise<LaunchedServer>;
export async function launchServer({
  env,
  database: givenDatabase,
  listen = false,
  onConnectionError,
  ...buildOptions
}: LaunchOptions): Promise<LaunchedServer> {
  const config = loadConfig(env);
  const database =
    givenDatabase ?? (await openDatabase({ ...config, ...(onConnectionError ? { onConnectionError } : {}) }));
  const closeOwnDatabase = async () => {
    if (!givenDatabase) await database.close();
  };
  const app = await buildApp({ config, database, ...buildOptions }).catch(async (error: unknown) => {
    await closeOwnDatabase();
    throw error;
  });
  let baseUrl: string | null = null;
  try {
    if (listen) baseUrl = await app.listen({ port: config.port, host: config.host });
    else await app.ready();
  } catch (error) {
    await app.close();
    await closeOwnDatabase();
    throw error;
  }
  return {
    app,
    config,
    database,
    baseUrl,
    close: async () => {
      await app.close();
      await closeOwnDatabase();
    },
  };
}
