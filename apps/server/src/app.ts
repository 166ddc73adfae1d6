import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { type ZodTypeProvider, jsonSchemaTransform, serializerCompiler } from 'fastify-type-provider-zod';
import { type Config, PRODUCT_NAME } from './config';
import type { DatabaseHandle } from './db/client';
import { closingDeadlinePlugin } from './http/closing-deadline';
import { documentedResponses } from './http/endpoint-route';
import { BODY_LIMIT } from './http/body-limits';
import { geometryWarmUpPlugin } from './http/geometry-warm-up';
import { healthPlugin } from './http/health';
import { localisedValidatorCompiler } from './http/localised-validation';
import { accessModule } from './modules/access';
import { adminModule } from './modules/admin';
import { farmsModule } from './modules/farms';
import { adviceModule } from './modules/advice';
import { applicationDepthModule } from './modules/application-depth';
import { asAppliedModule } from './modules/as-applied';
import { autopilotModule } from './modules/autopilot';
import { commandsModule } from './modules/commands';
import { cropSeasonsModule } from './modules/crop-seasons';
import { devicesModule } from './modules/devices';
import { farmRecordsModule } from './modules/farm-records';
import { idempotencyModule } from './modules/idempotency';
import { logsModule } from './modules/logs';
import { mailModule } from './modules/mail';
import { programsModule } from './modules/programs';
import { alertsModule } from './modules/alerts';
import { backupsModule } from './modules/backups';
import { incidentsModule } from './modules/incidents';
import { quarantineModule } from './modules/quarantine';
import { reportsExportModule } from './modules/reports-export';
import { sprinklersModule } from './modules/sprinklers';
import { telemetryModule } from './modules/telemetry';
import { usersModule } from './modules/users';
import { watermapModule } from './modules/watermap';
import { waterBalanceModule } from './modules/water-balance';
import { webhooksModule } from './modules/webhooks';
import { weatherModule } from './modules/weather';
import { authenticationPlugin } from './plugins/authentication';
import { csrfPlugin } from './plugins/csrf';
import { databasePlugin } from './plugins/database';
import { errorHandlerPlugin } from './plugins/error-handler';
import { inputGuardPlugin } from './plugins/input-guard';
import { outboundPlugin } from './plugins/outbound';
import { machineGatewayPlugin } from './plugins/machine-gateway';
import { securityHeadersPlugin } from './plugins/security-headers';
import { inlineScriptSources, webAppPlugin } from './plugins/web-app';

/** The server: Fastify with every module's service on it (`app.users`, `app.sprinklers`, …). */
export type App = FastifyInstance;

export type BuildAppOptions = {
  config: Config;
  database: DatabaseHandle;
  /** Where one-time notices (a generated admin password) are written; stdout by default. */
  print?: (text: string) => void;
  /** For tests: the certificates of local https listeners (a push service) that outbound requests trust. */
  outboundCa?: string | Buffer;
};

/**
 * Builds the whole server over an open database, in three layers: the external plugins, our
 * core plugins (database, the machines' gateway, authentication, errors, the web app), then the
 * domain modules, each after the modules it builds on (each declares them; docs/architecture.md).
 */
export async function buildApp({
  config,
  database,
  print = (text) => process.stdout.write(text),
  outboundCa,
}: BuildAppOptions): Promise<App> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
    },
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true },
    // Small for every route; the few that take a field's geometry raise it (http/body-limits.ts).
    bodyLimit: BODY_LIMIT,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(localisedValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(closingDeadlinePlugin, config);
  await app.register(securityHeadersPlugin, {
    publicUrl: config.publicUrl,
    inlineScripts: inlineScriptSources(config.webDistDir),
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
    // A route registered from a contract's declaration also lists the errors it declares.
    transform: (document) => {
      const endpoint = document.route.config?.endpoint;
      if (!endpoint || !document.schema) return jsonSchemaTransform(document);
      const response = { ...documentedResponses(endpoint), ...(document.schema.response as object | undefined) };
      return jsonSchemaTransform({ ...document, schema: { ...document.schema, response } });
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  await app.register(errorHandlerPlugin);
  await app.register(webAppPlugin, { distDir: config.webDistDir });
  await app.register(csrfPlugin, { secure: config.cookieSecure });
  await app.register(inputGuardPlugin);
  await app.register(geometryWarmUpPlugin);
  await app.register(databasePlugin, { database });
  await app.register(machineGatewayPlugin, config);
  // Every route registered from here on needs a signed-in user unless it declares itself public.
  await app.register(authenticationPlugin);
  await app.register(healthPlugin);
  await app.register(outboundPlugin, { ...config, ...(outboundCa ? { ca: outboundCa } : {}) });

  // First: it marks the routes of the modules after it that declare themselves idempotent.
  await app.register(idempotencyModule, config);
  await app.register(mailModule, config);
  await app.register(accessModule);
  await app.register(logsModule);
  await app.register(devicesModule, config);
  await app.register(usersModule, { ...config, print });
  await app.register(quarantineModule, config);
  await app.register(weatherModule, config);
  await app.register(telemetryModule, config);
  await app.register(commandsModule, config);
  await app.register(sprinklersModule);
  await app.register(programsModule, config);
  await app.register(watermapModule, config);
  await app.register(reportsExportModule);
  await app.register(asAppliedModule, config);
  await app.register(cropSeasonsModule);
  await app.register(applicationDepthModule);
  await app.register(farmRecordsModule, config);
  await app.register(waterBalanceModule, config);
  await app.register(adviceModule, config);
  await app.register(alertsModule, config);
  await app.register(incidentsModule);
  await app.register(autopilotModule, config);
  await app.register(webhooksModule, config);
  await app.register(adminModule);
  await app.register(farmsModule, config);
  await app.register(backupsModule, config);

  return app;
}
