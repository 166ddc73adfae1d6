import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { COMMAND_CLOCK_TOLERANCE_MS } from '@pivot/contracts';
import { z } from 'zod';
import { parseAllowedHosts } from './http/outbound';
import { DEFAULT_WEB_DIST_DIR } from './paths';

const booleanFromEnv = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');
const optionalText = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

/** The names proxy-addr (Fastify's trustProxy) gives to address ranges. */
const ADDRESS_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(value: string): boolean {
  if (ADDRESS_RANGE_NAMES.has(value)) return true;
  const [address = '', prefix, ...rest] = value.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (version === 4 ? 32 : 128);
}

const TRUST_PROXY_EXPECTED = "expected true, false, or the proxies' IP addresses and CIDR ranges, comma-separated";

/** Open-Meteo's public daily forecast: no key needed, so the advice looks ahead unless `FORECAST_URL=off`. */
export const OPEN_METEO_FORECAST_URL = 'https://api.open-meteo.com/v1/forecast';

/**
 * Whom to believe about a request's client address and protocol (X-Forwarded-For, -Proto): `true`
 * for any peer, `false` for none, or the proxies' addresses and ranges (`127.0.0.1,10.0.0.0/8`,
 * `loopback`), so that clients reaching the server directly cannot claim another address.
 */
const trustProxyFromEnv = z.union([
  booleanFromEnv,
  z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().refine(isAddressOrRange, TRUST_PROXY_EXPECTED)).min(1, TRUST_PROXY_EXPECTED)),
]);

/**
 * A controller acts on a command only until the clock tolerance before it expires, and one whose
 * clock is ahead by the tolerance loses as much again; a second is left to deliver the command.
 */
const MIN_COMMAND_TIMEOUT_MS = 2 * COMMAND_CLOCK_TOLERANCE_MS + 1000;

const SCHEDULE_UNITS_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const SCHEDULE_EXPECTED = 'expected daily, hourly, or an interval such as 30m, 6h or 2d (at least 5m)';

/** How often scheduled backups are taken: `daily`, `hourly` or an interval (`30m`, `6h`, `2d`). */
const backupScheduleFromEnv = z
  .string()
  .default('daily')
  .transform((value, context) => {
    const named = { daily: '1d', hourly: '1h' }[value.trim()] ?? value.trim();
    const match = /^(\d+)([mhd])$/.exec(named);
    const everyMs = match ? Number(match[1]) * SCHEDULE_UNITS_MS[match[2] as keyof typeof SCHEDULE_UNITS_MS] : 0;
    if (everyMs < 5 * 60_000) {
      context.addIssue({ code: 'custom', message: SCHEDULE_EXPECTED });
      return z.NEVER;
    }
    return everyMs;
  });

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
  REFRESH_REUSE_GRACE_SECONDS: z.coerce.number().int().min(0).max(60).default(20),
  COOKIE_SECURE: booleanFromEnv.optional(),
  REQUIRE_ADMIN_2FA: booleanFromEnv.default(false),
  TRUST_PROXY: trustProxyFromEnv.default(false),
  ADMIN_EMAIL: optionalText,
  ADMIN_PASSWORD: optionalText,
  SMTP_URL: optionalText,
  MAIL_FROM: z.string().default('Pivot dashboard <no-reply@localhost>'),
  WEB_DIST_DIR: optionalText,
  MQTT_URL: optionalText,
  MQTT_PORT: z.coerce.number().int().min(0).max(65535).default(1883),
  MQTT_HOST: z.string().default('0.0.0.0'),
  MQTT_SHARED_GROUP: z.string().optional(),
  MQTT_USERNAME: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,40}$/, 'MQTT_USERNAME: letters, digits, - and _ only')
    .default('pivot-server'),
  MQTT_PASSWORD: optionalText,
  MQTT_DEVICE_AUTH: z.enum(['broker', 'mosquitto-dynsec', 'http']).default('broker'),
  DEVICE_SECRET_KEY: optionalText.refine(
    (value) => value === undefined || value.length >= 32,
    'DEVICE_SECRET_KEY needs at least 32 characters',
  ),
  MQTT_AUTH_HTTP_SECRET: optionalText.refine(
    (value) => value === undefined || value.length >= 32,
    'MQTT_AUTH_HTTP_SECRET needs at least 32 characters',
  ),
  EMQX_API_URL: optionalText,
  EMQX_API_KEY: optionalText,
  EMQX_API_SECRET: optionalText,
  MQTT_TLS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  MQTT_TLS_CERT: optionalText,
  MQTT_TLS_KEY: optionalText,
  SERVER_ID: optionalText.refine(
    (value) => value === undefined || /^[A-Za-z0-9_-]{1,40}$/.test(value),
    'SERVER_ID: letters, digits, - and _ only',
  ),
  MQTT_SESSION_EXPIRY_SECONDS: z.coerce.number().int().min(0).max(4_294_967_295).optional(),
  COMMAND_TIMEOUT_MS: z.coerce.number().int().min(MIN_COMMAND_TIMEOUT_MS).max(120_000).default(5000),
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
  MAX_LIVE_STREAMS: z.coerce.number().int().min(1).max(100_000).default(1000),
  STREAM_WRITE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  QUARANTINE_RETENTION_DAYS: z.coerce.number().int().min(1).max(366).default(7),
  FORECAST_URL: z.union([z.literal('off'), z.url({ protocol: /^https?$/ })]).default(OPEN_METEO_FORECAST_URL),
  PROGRAM_FROM_ADVICE_MARGIN_HOURS: z.coerce.number().min(0).max(168).default(24),
  AUTOPILOT_LOOK_SECONDS: z.coerce.number().int().min(1).max(3600).default(600),
  OUTBOUND_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((value, context) => {
      try {
        return parseAllowedHosts(value);
      } catch (error) {
        context.addIssue({ code: 'custom', message: `OUTBOUND_ALLOWED_HOSTS: ${(error as Error).message}` });
        return z.NEVER;
      }
    }),
  TELEMETRY_PACK_AFTER_DAYS: z.coerce.number().int().min(1).max(36_500).default(2),
  TELEMETRY_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).optional(),
  // At least a season and a half: the water balance reads a station's and probes' days back to the season's start.
  READINGS_RETENTION_DAYS: z.coerce.number().int().min(270).max(36_500).default(400),
  BACKUP_PASSPHRASE: optionalText,
  BACKUP_DIR: optionalText,
  BACKUP_SCHEDULE: backupScheduleFromEnv,
  BACKUP_KEEP: z.coerce.number().int().min(1).max(10_000).default(7),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

/** The product's name in mail, the API docs and the console. */
export const PRODUCT_NAME = 'Pivot';

export class ConfigError extends Error {}

/** The settings the server runs with: the environment, checked, with its defaults and derived values. */
const ConfigSchema = EnvSchema.superRefine((values, context) => {
  const problem = (path: string, message: string) => context.addIssue({ code: 'custom', path: [path], message });
  if (values.MQTT_URL && values.MQTT_DEVICE_AUTH === 'http' && !values.MQTT_AUTH_HTTP_SECRET) {
    problem('MQTT_AUTH_HTTP_SECRET', 'is needed with MQTT_DEVICE_AUTH=http: the broker sends it with every question');
  }
  if (values.MQTT_URL && values.MQTT_DEVICE_AUTH !== 'broker' && !values.MQTT_PASSWORD) {
    problem(
      'MQTT_PASSWORD',
      `is needed with MQTT_DEVICE_AUTH=${values.MQTT_DEVICE_AUTH}: the server's own broker account`,
    );
  }
  if (
    values.TELEMETRY_RETENTION_DAYS !== undefined &&
    values.TELEMETRY_RETENTION_DAYS <= values.TELEMETRY_PACK_AFTER_DAYS
  ) {
    problem(
      'TELEMETRY_RETENTION_DAYS',
      `must be more than TELEMETRY_PACK_AFTER_DAYS (${values.TELEMETRY_PACK_AFTER_DAYS}): only packed days are dropped`,
    );
  }
  const emqxSettings = [values.EMQX_API_URL, values.EMQX_API_KEY, values.EMQX_API_SECRET];
  if (emqxSettings.some((value) => value !== undefined) && emqxSettings.some((value) => value === undefined)) {
    problem('EMQX_API_URL', 'EMQX_API_URL, EMQX_API_KEY and EMQX_API_SECRET go together');
  }
  const tlsSettings = [values.MQTT_TLS_PORT, values.MQTT_TLS_CERT, values.MQTT_TLS_KEY];
  if (tlsSettings.some((value) => value !== undefined) && tlsSettings.some((value) => value === undefined)) {
    problem('MQTT_TLS_PORT', 'MQTT_TLS_PORT, MQTT_TLS_CERT and MQTT_TLS_KEY go together');
  }
}).transform((values) => {
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
    /** How long a just-replaced refresh token still gets a new one instead of ending the session. */
    refreshReuseGraceSeconds: values.REFRESH_REUSE_GRACE_SECONDS,
    cookieSecure: values.COOKIE_SECURE ?? publicUrl.startsWith('https://'),
    /** Administrators must sign in with a second factor: until they set one up, only that is open to them (docs/two-factor.md). */
    requireAdminSecondFactor: values.REQUIRE_ADMIN_2FA,
    /** Whose X-Forwarded-For and X-Forwarded-Proto to believe: every peer, none, or these addresses. */
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
    /**
     * The server's own broker account. The embedded broker takes a password made at each start
     * (only this process connects as the server); a real broker needs MQTT_PASSWORD.
     */
    mqttServerCredentials: {
      username: values.MQTT_USERNAME,
      password: values.MQTT_PASSWORD ?? (values.MQTT_URL ? '' : randomBytes(32).toString('base64url')),
    },
    /**
     * How a real broker learns the controllers' credentials: it keeps them itself ('broker',
     * configured by the operator), the server manages them in Mosquitto's dynamic security, or
     * the broker asks the server's HTTP endpoints (EMQX). The embedded broker asks the server directly.
     */
    mqttDeviceAuth: values.MQTT_URL ? values.MQTT_DEVICE_AUTH : ('embedded' as const),
    mqttAuthHttpSecret: values.MQTT_AUTH_HTTP_SECRET,
    /**
     * Seals each controller's secret so the server can give a broker that lost its accounts every
     * one back (docs/decisions/0007-device-secrets-sealed.md); kept in DATA_DIR when not given.
     */
    deviceSecretKey: values.DEVICE_SECRET_KEY,
    /** EMQX's REST API, to drop a controller's connection after a new secret or a removal. */
    emqxApi:
      values.EMQX_API_URL && values.EMQX_API_KEY && values.EMQX_API_SECRET
        ? { url: values.EMQX_API_URL, key: values.EMQX_API_KEY, secret: values.EMQX_API_SECRET }
        : undefined,
    mqttTls:
      values.MQTT_TLS_PORT === undefined || !values.MQTT_TLS_CERT || !values.MQTT_TLS_KEY
        ? undefined
        : {
            port: values.MQTT_TLS_PORT,
            certFile: path.resolve(values.MQTT_TLS_CERT),
            keyFile: path.resolve(values.MQTT_TLS_KEY),
          },
    /**
     * Names this instance on the broker: its client id, reply topic and persistent session. Kept
     * in the data folder when not given, so a restarted instance finds its session and journal again.
     */
    serverId: values.SERVER_ID ?? keptServerId(path.resolve(values.DATA_DIR)),
    /**
     * How long an external broker keeps the server's session, with its subscriptions and the
     * reports queued for it, while the server is away (a restart); 0: a clean session each time.
     * The embedded broker stops with the server, so there is nothing to keep.
     */
    mqttSessionExpirySeconds: values.MQTT_URL ? (values.MQTT_SESSION_EXPIRY_SECONDS ?? 86_400) : 0,
    commandTimeoutMs: values.COMMAND_TIMEOUT_MS,
    maxProgramsPerMachine: values.MAX_PROGRAMS_PER_MACHINE,
    /** Live event streams (machines, list, alerts) this instance holds open at once, for all its users together. */
    maxLiveStreams: values.MAX_LIVE_STREAMS,
    /**
     * How long a live stream's client may leave what was written to it unread (the socket not
     * drained) before the stream is closed; its browser opens it again and reads the current state.
     */
    streamWriteTimeoutMs: values.STREAM_WRITE_TIMEOUT_MS,
    /** How long machine messages set aside (docs/protocol.md) stay visible to administrators. */
    quarantineRetentionDays: values.QUARANTINE_RETENTION_DAYS,
    /**
     * A machine's day of reports is packed (the telemetry module's packing) once this many whole days have
     * passed since it ended, in TIME_ZONE: late reports of the days before are rare by then.
     */
    telemetryPackAfterDays: values.TELEMETRY_PACK_AFTER_DAYS,
    /** Reports of days that ended more than this many whole days ago are deleted, packed or not; null keeps them all. */
    telemetryRetentionDays: values.TELEMETRY_RETENTION_DAYS ?? null,
    /** Stations' and soil probes' readings older than this many days are deleted (each sensor's latest stays). */
    readingsRetentionDays: values.READINGS_RETENTION_DAYS,
    /** Run the simulated demo fleet, granted to the demo user: the embedded defaults come with machines to try. */
    demoFleet: values.DEMO_FLEET ?? !values.MQTT_URL,
    demoEmail: values.DEMO_EMAIL.toLowerCase(),
    demoPassword: values.DEMO_PASSWORD,
    /** The farmers' time zone: calendar days for rainfall, ETP and the watermap. */
    timeZone: values.TIME_ZONE,
    /** The built web app; the server serves it when it exists. */
    webDistDir: values.WEB_DIST_DIR ? path.resolve(values.WEB_DIST_DIR) : DEFAULT_WEB_DIST_DIR,
    /** Encrypts every backup this server or `npm run backup` writes, and opens them for a restore. */
    backupPassphrase: values.BACKUP_PASSPHRASE,
    /** Backups written on a schedule to a folder, the newest `keep` kept; none without BACKUP_DIR. */
    backupSchedule: values.BACKUP_DIR
      ? { dir: path.resolve(values.BACKUP_DIR), everyMs: values.BACKUP_SCHEDULE, keep: values.BACKUP_KEEP }
      : undefined,
    logLevel: values.LOG_LEVEL,
    /**
     * Hosts (or host:port) that webhooks and push endpoints may reach although they are private
     * or loopback, also over plain http: an operator's own receivers (docs/configuration.md).
     */
    outboundAllowedHosts: values.OUTBOUND_ALLOWED_HOSTS,
    /** An Open-Meteo-compatible daily forecast for the irrigation advice (docs/advice.md); null (`off`): the recent ET0. */
    forecastUrl: values.FORECAST_URL === 'off' ? null : values.FORECAST_URL,
    /**
     * A program from the advice waters a sector due up to this many hours after the arm gets
     * there: the balance is daily, and one due the day after the pass would otherwise wait a whole
     * revolution more (docs/advice.md, "A program from the advice").
     */
    programFromAdviceMarginHours: values.PROGRAM_FROM_ADVICE_MARGIN_HOURS,
    /** How often the autopilot looks at the machines in suggest or auto (docs/autopilot.md, "The watcher"). */
    autopilotLookMs: values.AUTOPILOT_LOOK_SECONDS * 1000,
  };
});

export type Config = z.output<typeof ConfigSchema>;

/** The id this data folder's server took at its first start, or a new one kept for the next. */
function keptServerId(dataDir: string): string {
  const file = path.join(dataDir, 'server-id');
  try {
    const kept = readFileSync(file, 'utf8').trim();
    if (/^[A-Za-z0-9_-]{1,40}$/.test(kept)) return kept;
  } catch {
    // None kept yet: this is the folder's first start.
  }
  const id = randomBytes(4).toString('hex');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, `${id}\n`);
  return id;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  return parsed.data;
}
