import helmet from '@fastify/helmet';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  type ZodTypeProvider,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { DatabaseHandle } from './db/client';
import { healthRoutes } from './http/health.routes';
import { AccessTokens } from './modules/auth/access-tokens';
import { AccountMail } from './modules/auth/account-mail';
import { getOrCreateSecret } from './modules/auth/auth.repository';
import { authRoutes } from './modules/auth/auth.routes';
import { AuthService } from './modules/auth/auth.service';
import { PasswordHasher } from './modules/auth/password-hasher';
import { randomToken } from './modules/auth/secrets';
import { LONGEST_THROTTLE_WINDOW_MS, Throttle } from './modules/auth/throttle';
import { logsRoutes } from './modules/logs/logs.routes';
import { LogsService } from './modules/logs/logs.service';
import { createMailTransport } from './modules/mail/mail-transport';
import { OutboxWorker } from './modules/mail/outbox-worker';
import { ensureFirstAdmin } from './modules/users/first-admin';
import { usersRoutes } from './modules/users/users.routes';
import { UsersService } from './modules/users/users.service';
import { startEmbeddedBroker } from './gateway/embedded-broker';
import { MqttGateway } from './gateway/mqtt-gateway';
import { programsRoutes } from './modules/programs/programs.routes';
import { ProgramsService } from './modules/programs/programs.service';
import { sprinklersRoutes } from './modules/sprinklers/sprinklers.routes';
import { SprinklersService } from './modules/sprinklers/sprinklers.service';
import { LiveHub } from './modules/telemetry/live-hub';
import { liveRoutes } from './modules/telemetry/live.routes';
import { machineReportHandlers } from './modules/telemetry/machine-reports';
import { TelemetryIngest } from './modules/telemetry/telemetry-ingest';
import { WaterAccounting } from './modules/watermap/water-accounting';
import { watermapRoutes } from './modules/watermap/watermap.routes';
import { WatermapService } from './modules/watermap/watermap.service';
import { WeatherService } from './modules/weather/weather.service';
import { authenticationPlugin } from './plugins/authentication';
import { csrfPlugin } from './plugins/csrf';
import { errorHandlerPlugin } from './plugins/error-handler';
import { webAppPlugin } from './plugins/web-app';

export type App = FastifyInstance & {
  database: DatabaseHandle;
  services: { hasher: PasswordHasher; sprinklers: SprinklersService; programs: ProgramsService };
  outbox: OutboxWorker;
  telemetry: TelemetryIngest;
  waterAccounting: WaterAccounting;
  mailDescription: string;
  /** The broker machines connect to: MQTT_URL, or the embedded one. */
  mqttUrl: string;
};

export type BuildAppOptions = {
  config: Config;
  database: DatabaseHandle;
  /** Where one-time notices (a generated admin password) are written; stdout by default. */
  print?: (text: string) => void;
};

const PRODUCT_NAME = 'Pivot';
const THROTTLE_PRUNE_INTERVAL_MS = 10 * 60 * 1000;

/**
 * Builds the whole server over an open database: external plugins first, then the
 * application's own, then the routes under /api.
 */
export async function buildApp({
  config,
  database,
  print = (text) => process.stdout.write(text),
}: BuildAppOptions): Promise<App> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
    },
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true },
    bodyLimit: 5 * 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(helmet, {
    contentSecurityPolicy: { directives: { 'script-src': ["'self'"], 'img-src': ["'self'", 'data:', 'https:'] } },
  });
  // Farmers are often on a slow mobile connection: answers and the app's files go compressed
  // (the live event streams are written directly and stay uncompressed, so nothing waits).
  await app.register(compress, { threshold: 1024 });
  await app.register(cookie);
  await app.register(swagger, {
    openapi: {
      info: { title: `${PRODUCT_NAME} API`, version: '1.0.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  const { db } = database;
  const hasher = new PasswordHasher();
  const secret = config.jwtSecret ?? (await getOrCreateSecret(db, 'jwt', randomToken()));
  const transport = createMailTransport({
    smtpUrl: config.smtpUrl,
    mailFrom: config.mailFrom,
    dataDir: config.dataDir,
  });
  const outbox = new OutboxWorker({ db, transport, logger: app.log });
  const mailQueued = () => outbox.wake();
  const accountMail = new AccountMail(config.publicUrl, PRODUCT_NAME);
  const throttle = new Throttle(db);
  const auth = new AuthService({
    db,
    hasher,
    accessTokens: new AccessTokens(secret, config.accessTokenTtlSeconds),
    accountMail,
    throttle,
    mailQueued,
  });
  const users = new UsersService({ db, hasher, accountMail, mailQueued });
  const logs = new LogsService(db);

  const broker = config.mqttUrl
    ? undefined
    : await startEmbeddedBroker({ port: config.mqttPort, host: config.mqttHost });
  const mqttUrl = config.mqttUrl ?? broker!.url;
  const telemetry = new TelemetryIngest(db, app.log);
  const weather = new WeatherService(db, config.timeZone);
  const hub = new LiveHub();
  const storeReport = (what: string, work: Promise<void>) =>
    void work.catch((error: unknown) => app.log.error({ err: error }, `storing ${what} failed`));
  const gateway = await MqttGateway.connect({
    url: mqttUrl,
    serverId: config.serverId,
    sharedGroup: config.mqttSharedGroup,
    commandTimeoutMs: config.commandTimeoutMs,
    logger: app.log,
    handlers: {
      ...machineReportHandlers(db, telemetry, app.log),
      weather: (stationId, message) => storeReport('a weather reading', weather.recordWeather(stationId, message)),
      soil: (sensorId, message) => storeReport('a soil reading', weather.recordSoil(sensorId, message)),
    },
    live: (event) => hub.publish(event),
  });
  const sprinklers = new SprinklersService({ db, machines: gateway, weather });
  const watermap = new WatermapService(db, sprinklers);
  const waterAccounting = new WaterAccounting(db, config.timeZone, app.log);
  const programs = new ProgramsService({
    db,
    machines: gateway,
    sprinklers,
    maxProgramsPerMachine: config.maxProgramsPerMachine,
  });

  await app.register(errorHandlerPlugin);
  await app.register(webAppPlugin, { distDir: config.webDistDir });
  await app.register(csrfPlugin, { secure: config.cookieSecure });

  // Sign-in is enforced on the API's routes, so the public API docs registered above stay open.
  await app.register(
    async (api) => {
      await api.register(authenticationPlugin, { auth });
      await api.register(healthRoutes, { database, broker: gateway });
      await api.register(authRoutes, { auth, secureCookies: config.cookieSecure });
      await api.register(usersRoutes, { users });
      await api.register(logsRoutes, { logs });
      await api.register(sprinklersRoutes, { sprinklers });
      await api.register(programsRoutes, { programs });
      await api.register(liveRoutes, { sprinklers, hub });
      await api.register(watermapRoutes, { watermap });
    },
    { prefix: '/api' },
  );

  await ensureFirstAdmin(db, hasher, { email: config.adminEmail, password: config.adminPassword, log: app.log, print });

  const pruneTimer = setInterval(() => {
    throttle
      .prune(LONGEST_THROTTLE_WINDOW_MS)
      .catch((error: unknown) => app.log.warn({ err: error }, 'pruning throttle events failed'));
  }, THROTTLE_PRUNE_INTERVAL_MS);
  pruneTimer.unref();

  app.addHook('onReady', async () => {
    outbox.start();
    waterAccounting.start();
  });
  app.addHook('onClose', async () => {
    clearInterval(pruneTimer);
    await Promise.all([outbox.stop(), gateway.close(), waterAccounting.stop()]);
    await telemetry.flush();
    await broker?.close();
  });

  return Object.assign(app, {
    database,
    services: { hasher, sprinklers, programs },
    outbox,
    telemetry,
    waterAccounting,
    mailDescription: transport.description,
    mqttUrl,
  });
}
