import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const booleanFromEnv = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');
const optionalText = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

/** Every environment variable the server reads; docs/configuration.md describes each. */
const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('data'),
  DATABASE_URL: optionalText,
  PUBLIC_URL: optionalText,
  JWT_SECRET: optionalText.refine(
    (value) => value === undefined || value.length >= 32,
    'JWT_SECRET needs at least 32 characters',
  ),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(5).default(900),
  COOKIE_SECURE: booleanFromEnv.optional(),
  TRUST_PROXY: booleanFromEnv.default(false),
  ADMIN_EMAIL: optionalText,
  ADMIN_PASSWORD: optionalText,
  SMTP_URL: optionalText,
  MAIL_FROM: z.string().default('Pivot dashboard <no-reply@localhost>'),
  WEB_DIST_DIR: optionalText,
  MQTT_URL: optionalText,
  MQTT_PORT: z.coerce.number().int().min(0).max(65535).default(1883),
  MQTT_HOST: z.string().default('0.0.0.0'),
  MQTT_SHARED_GROUP: z.string().optional(),
  SERVER_ID: optionalText.refine(
    (value) => value === undefined || /^[A-Za-z0-9_-]{1,40}$/.test(value),
    'SERVER_ID: letters, digits, - and _ only',
  ),
  COMMAND_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(5000),
  TIME_ZONE: z
    .string()
    .default('Europe/Warsaw')
    .refine((zone) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    }, 'TIME_ZONE must be an IANA time zone such as Europe/Warsaw'),
  DEMO_FLEET: booleanFromEnv.optional(),
  DEMO_EMAIL: z.string().default('demo@pivot.local'),
  DEMO_PASSWORD: optionalText,
  MAX_PROGRAMS_PER_MACHINE: z.coerce.number().int().min(1).max(1000).default(10),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

const DEFAULT_WEB_DIST_DIR = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** The product's name in mail, the API docs and the console. */
export const PRODUCT_NAME = 'Pivot';

export class ConfigError extends Error {}

/** The settings the server runs with: the environment, checked, with its defaults and derived values. */
const ConfigSchema = EnvSchema.transform((values) => {
  const publicUrl = (values.PUBLIC_URL ?? `http://localhost:${values.PORT}`).replace(/\/+$/, '');
  return {
    port: values.PORT,
    host: values.HOST,
    dataDir: path.resolve(values.DATA_DIR),
    databaseUrl: values.DATABASE_URL,
    /** Address users reach the product at; mailed links start with it. */
    publicUrl,
    jwtSecret: values.JWT_SECRET,
    accessTokenTtlSeconds: values.ACCESS_TOKEN_TTL_SECONDS,
    cookieSecure: values.COOKIE_SECURE ?? publicUrl.startsWith('https://'),
    trustProxy: values.TRUST_PROXY,
    adminEmail: values.ADMIN_EMAIL?.toLowerCase(),
    adminPassword: values.ADMIN_PASSWORD,
    smtpUrl: values.SMTP_URL,
    mailFrom: values.MAIL_FROM,
    /** A broker to connect to; without it the server runs an embedded one on mqttPort. */
    mqttUrl: values.MQTT_URL,
    mqttPort: values.MQTT_PORT,
    mqttHost: values.MQTT_HOST,
    /**
     * Shared-subscription group of the server instances; undefined: plain subscriptions. aedes,
     * the embedded broker, has none; a real broker gets them unless turned off.
     */
    mqttSharedGroup: values.MQTT_URL ? (values.MQTT_SHARED_GROUP ?? 'pivot-api') || undefined : undefined,
    serverId: values.SERVER_ID ?? randomBytes(4).toString('hex'),
    commandTimeoutMs: values.COMMAND_TIMEOUT_MS,
    maxProgramsPerMachine: values.MAX_PROGRAMS_PER_MACHINE,
    /** Run the simulated demo fleet, granted to the demo user: the embedded defaults come with machines to try. */
    demoFleet: values.DEMO_FLEET ?? !values.MQTT_URL,
    demoEmail: values.DEMO_EMAIL.toLowerCase(),
    demoPassword: values.DEMO_PASSWORD,
    /** The farmers' time zone: calendar days for rainfall, ETP and the watermap. */
    timeZone: values.TIME_ZONE,
    /** The built web app; the server serves it when it exists. */
    webDistDir: values.WEB_DIST_DIR ? path.resolve(values.WEB_DIST_DIR) : DEFAULT_WEB_DIST_DIR,
    logLevel: values.LOG_LEVEL,
  };
});

export type Config = z.output<typeof ConfigSchema>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  return parsed.data;
}
