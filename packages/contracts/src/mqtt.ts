import { z } from 'zod';
import { LineStringSchema } from './geojson';
import { ProgramDataSchema } from './programs';
import { MotionSchema, SprinklerStatusSchema } from './sprinklers';

/**
 * The MQTT contract between the server and machine controllers (docs/protocol.md explains it in
 * full). Every payload is a JSON object with the protocol's major version in `v`; topics carry
 * it too, so a future v2 can run beside v1 on one broker.
 */
export const PROTOCOL_VERSION = 1;
export const TOPIC_ROOT = 'pivot/v1';

/** IDs appear inside topics, so they may not contain MQTT's separators or wildcards. */
const TOPIC_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Every topic a controller publishes is under its own machine's: its stations and soil sensors
 * are spoken for by the controller they are wired or radioed to, so one credential and one
 * topic prefix cover all a device may say (docs/protocol.md, "Security").
 */
export const topics = {
  presence: (machineId: string) => `${TOPIC_ROOT}/machines/${machineId}/presence`,
  telemetry: (machineId: string) => `${TOPIC_ROOT}/machines/${machineId}/telemetry`,
  program: (machineId: string) => `${TOPIC_ROOT}/machines/${machineId}/program`,
  commands: (machineId: string) => `${TOPIC_ROOT}/machines/${machineId}/commands`,
  weather: (machineId: string, stationId: string) =>
    `${TOPIC_ROOT}/machines/${machineId}/stations/${stationId}/weather`,
  soil: (machineId: string, sensorId: string) => `${TOPIC_ROOT}/machines/${machineId}/sensors/${sensorId}/soil`,
  /** Named after the machine that answers, so a reply is only taken from the machine asked. */
  replies: (serverId: string, machineId: string) => `${TOPIC_ROOT}/servers/${serverId}/replies/${machineId}`,
} as const;

/**
 * Server instances tell each other here that a controller was registered or removed, so each
 * admits its reports at once. Only the server may publish or subscribe to it.
 */
export const CONTROLLERS_CHANGED_TOPIC = `${TOPIC_ROOT}/servers/all/controllers-changed`;

/** Subscription filters for every machine, station and sensor. */
export const topicFilters = {
  presence: `${TOPIC_ROOT}/machines/+/presence`,
  telemetry: `${TOPIC_ROOT}/machines/+/telemetry`,
  program: `${TOPIC_ROOT}/machines/+/program`,
  weather: `${TOPIC_ROOT}/machines/+/stations/+/weather`,
  soil: `${TOPIC_ROOT}/machines/+/sensors/+/soil`,
  replies: (serverId: string) => `${TOPIC_ROOT}/servers/${serverId}/replies/+`,
} as const;

export type TopicKind = 'presence' | 'telemetry' | 'program' | 'commands' | 'weather' | 'soil' | 'reply';

/**
 * What a topic carries: its kind, the machine whose topic it is, and the device that reported
 * (the machine itself, or its station or sensor). For a reply, `deviceId` is the server's id.
 * Null for any other topic.
 */
export type ParsedTopic = { kind: TopicKind; machineId: string; deviceId: string };

const TOPIC_PATTERNS: [RegExp, (match: string[]) => ParsedTopic][] = [
  [
    /^pivot\/v1\/machines\/([^/]+)\/(presence|telemetry|program|commands)$/,
    ([, machineId, kind]) => ({ kind: kind as TopicKind, machineId: machineId!, deviceId: machineId! }),
  ],
  [
    /^pivot\/v1\/machines\/([^/]+)\/(stations\/([^/]+)\/weather|sensors\/([^/]+)\/soil)$/,
    ([, machineId, , stationId, sensorId]) =>
      stationId === undefined
        ? { kind: 'soil', machineId: machineId!, deviceId: sensorId! }
        : { kind: 'weather', machineId: machineId!, deviceId: stationId },
  ],
  [
    /^pivot\/v1\/servers\/([^/]+)\/replies\/([^/]+)$/,
    ([, serverId, machineId]) => ({ kind: 'reply', machineId: machineId!, deviceId: serverId! }),
  ],
];

export function parseTopic(topic: string): ParsedTopic | null {
  for (const [pattern, read] of TOPIC_PATTERNS) {
    const match = pattern.exec(topic);
    if (!match) continue;
    const parsed = read(match);
    return TOPIC_ID_PATTERN.test(parsed.machineId) && TOPIC_ID_PATTERN.test(parsed.deviceId) ? parsed : null;
  }
  return null;
}

/**
 * Least privilege for a machine controller, the same on every broker: it publishes only its own
 * machine's topics (its stations' and sensors' readings included) and replies named after
 * itself, and subscribes only to its own commands. No wildcard subscription, no `$SYS`.
 */
export function machinePermissions(machineId: string): { publish: string[]; subscribe: string[] } {
  return {
    publish: [
      topics.presence(machineId),
      topics.telemetry(machineId),
      topics.program(machineId),
      topics.weather(machineId, '+'),
      topics.soil(machineId, '+'),
      topics.replies('+', machineId),
    ],
    subscribe: [topics.commands(machineId)],
  };
}

/**
 * Whether a device may publish to a topic: what `machinePermissions` allows, read off the parsed
 * topic (one regular expression, as the embedded broker asks at every message).
 */
export function machineMayPublish(machineId: string, topic: string): boolean {
  const parsed = parseTopic(topic);
  return parsed !== null && parsed.kind !== 'commands' && parsed.machineId === machineId;
}

/** Whether a device may subscribe to a filter: only its own commands, spelled out, no wildcard. */
export function machineMaySubscribe(machineId: string, filter: string): boolean {
  return machinePermissions(machineId).subscribe.includes(filter);
}

export const TopicIdSchema = z.string().regex(TOPIC_ID_PATTERN);

/**
 * What a pivot can physically do, with room to spare: anything beyond is a faulty sensor or a
 * forged message, and is refused before it is stored or counted (docs/protocol.md, "Limits").
 */
export const MACHINE_LIMITS = {
  /** The longest arm, end gun included, m (the longest centre pivots reach about 800 m). */
  armLengthM: 2000,
  /**
   * How far past the arm a machine may report its reach, or a GPS point of its arm, m: an end gun
   * throws 20–40 m beyond the last nozzle, and GPS errs a few metres. The arm is the one the
   * machine told when it was added (its `identify` answer).
   */
  endGunMarginM: 60,
  /** Water pressure at the pivot, bar (their pipes are rated for about 10). */
  pressureBar: 20,
  /** GPS positions along the arm, one per tower and more. */
  armPositions: 64,
  /** Timestamps before this are not of this product's machines: 2020-01-01. */
  earliestTs: Date.UTC(2020, 0, 1),
  /** Nor after this: 2100-01-01 (PostgreSQL stores up to year 294276, but the water accounting does not). */
  latestTs: Date.UTC(2100, 0, 1),
  /**
   * Water into one machine, m³/h. Real pivots take 150–500, but the simulator runs time faster
   * than life and scales the flow it reports by the same factor (docs/simulator.md); this bound
   * only keeps the water accounting's numbers finite.
   */
  flowM3h: 1_000_000,
  /**
   * How fast the end of the arm may move between two reports, m/s: the arc it swept at
   * `distance` over the time between them. A real end tower drives at most about 5 m/min
   * (0.08 m/s); the simulator runs time up to 1,000 times faster than life (its 3 m/min end
   * tower then moves 50 m/s; 1 m/s in the demo at ×20) and reports the flow scaled alike, so its
   * water is honest. A pair beyond it, or beyond what it sweeps in 10 s, is a faulty or forged
   * report, not motion: the water accounting counts it as a gap in the data instead of a wedge
   * of up to a half circle (a jump from 0° to 180° in 5 s at 2,000 m is 1,257 m/s; at this
   * speed 5 s sweep 9° there). docs/protocol.md, "Limits".
   */
  tipSpeedMPerS: 60,
  /** How far ahead of the server's clock a report's `ts` may be: a clock that is a little fast. */
  clockSkewMs: 5 * 60_000,
  /** How old a report may arrive: a controller sends what it buffered during an outage. */
  backfillMs: 7 * 24 * 60 * 60_000,
} as const;

// How often a machine reports and when its silence makes it offline: in machine-presence.ts, which
// the web app's first paint reads without zod.
export {
  INTERVALS_BEFORE_OFFLINE,
  TELEMETRY_INTERVAL_MS,
  machineIsOnline,
  silenceBeforeOfflineMs,
} from './machine-presence';

/** The largest payload the server reads; a program of many detailed sectors stays well below it. */
export const MAX_MESSAGE_BYTES = 512 * 1024;

const version = z.literal(PROTOCOL_VERSION);
/** ms since the epoch */
const timestamp = z.number().int().min(MACHINE_LIMITS.earliestTs).max(MACHINE_LIMITS.latestTs);
/** Text a machine sends, such as an alarm reason or a name: printable, no control characters. */
const machineText = (maxLength: number) =>
  z
    .string()
    .max(maxLength)
    .regex(/^[^\p{Cc}]*$/u, 'Control characters are not allowed');
const latitude = z.number().min(-90).max(90);
const longitude = z.number().min(-180).max(180);

/** Retained; the broker publishes `{ v: 1, online: false }` as the machine's last will. */
export const PresenceMessageSchema = z.object({
  v: version,
  online: z.boolean(),
  ts: timestamp.optional(),
});
export type PresenceMessage = z.infer<typeof PresenceMessageSchema>;

/**
 * The decimals a report's measured values are sent with (docs/protocol.md, "Precision"): 0.01°,
 * 1 cm, 0.1 %, 0.01 bar, 0.1 m³/h, finer than any controller's sensors. Finer values are stored as
 * they come, and take more room once a day is packed.
 */
export const TELEMETRY_DECIMALS = { angle: 2, distance: 2, speed: 1, pressure: 2, flow: 1 } as const;

export const TelemetryMessageSchema = z.object({
  v: version,
  /** When the values were measured; also the report's identity: a repeated ts is a duplicate. */
  ts: timestamp,
  status: SprinklerStatusSchema,
  /** Heading of the arm from the pivot centre, degrees clockwise from north, [0, 360). */
  angle: z.number().min(0).lt(360),
  /** Length of the watering arm from the pivot centre to the last nozzle, metres. */
  distance: z.number().nonnegative().max(MACHINE_LIMITS.armLengthM),
  /** Speed setting of the end tower, % of its top speed. */
  speed: z.number().min(0).max(100),
  /** Water pressure at the pivot, bar. */
  pressure: z.number().nonnegative().max(MACHINE_LIMITS.pressureBar),
  /** Water flow into the machine, m³/h. */
  flow: z.number().nonnegative().max(MACHINE_LIMITS.flowM3h),
  /** Why the machine is in alarm, such as "pressure_loss"; only with status alarm. */
  alarm: machineText(64).optional(),
  /** The arm as measured by GPS, when the machine has it; otherwise the server draws it from angle and distance. */
  position: LineStringSchema.refine(
    (line) => line.coordinates.length <= MACHINE_LIMITS.armPositions,
    `At most ${MACHINE_LIMITS.armPositions} positions`,
  ).optional(),
});
export type TelemetryMessage = z.infer<typeof TelemetryMessageSchema>;

/** Retained: the program the machine runs, or `program: null` when it has none. */
export const MachineProgramMessageSchema = z.object({
  v: version,
  program: z
    .object({
      name: machineText(100).min(1),
      /** When the machine finished processing the upload, ms since the epoch. */
      uploadedAt: timestamp,
      programData: ProgramDataSchema,
    })
    .nullable(),
});
export type MachineProgramMessage = z.infer<typeof MachineProgramMessageSchema>;

/**
 * How far a controller's clock may be from the server's (NTP or GPS keep it within a few
 * milliseconds). A controller acts on a command only while `sentAt - tolerance ≤ now ≤
 * expiresAt - tolerance` by its own clock, so one whose clock is within the tolerance never acts
 * after the server gave up (docs/protocol.md, "Acting only in time").
 */
export const COMMAND_CLOCK_TOLERANCE_MS = 1000;

const commandBase = {
  v: version,
  /** Correlation id: the reply repeats it; a command seen twice is carried out once. */
  id: z.string().min(1).max(64),
  /** Where to publish the reply. */
  replyTo: z.string().min(1).max(200),
  /** The server's clock when it published the command: a controller far behind it refuses it. */
  sentAt: timestamp,
  /** After this moment the server has given up: the machine must not carry the command out. */
  expiresAt: timestamp,
};

export const IdentifyCommandSchema = z.object({ ...commandBase, type: z.literal('identify') });
export const MotionCommandSchema = z.object({ ...commandBase, type: z.literal('motion'), motion: MotionSchema });
export const ProgramCommandSchema = z.object({
  ...commandBase,
  type: z.literal('program'),
  program: z.object({ name: z.string().min(1).max(100), programData: ProgramDataSchema }),
});

export const CommandMessageSchema = z.discriminatedUnion('type', [
  IdentifyCommandSchema,
  MotionCommandSchema,
  ProgramCommandSchema,
]);
export type CommandMessage = z.infer<typeof CommandMessageSchema>;
export type CommandType = CommandMessage['type'];

/** What a machine tells about itself when asked to identify, as when an administrator adds it. */
export const IdentityResultSchema = z.object({
  name: machineText(100).min(1).optional(),
  lat: latitude,
  lng: longitude,
  /** Length of the arm, metres. */
  armLength: z.number().positive().max(MACHINE_LIMITS.armLengthM),
  model: machineText(100).optional(),
  firmware: machineText(100).optional(),
});
export type IdentityResult = z.infer<typeof IdentityResultSchema>;

export const MotionResultSchema = z.object({ status: SprinklerStatusSchema });
export const ProgramResultSchema = z.object({ accepted: z.literal(true) });

/** The result each command answers with when it succeeds. */
export const COMMAND_RESULT_SCHEMAS = {
  identify: IdentityResultSchema,
  motion: MotionResultSchema,
  program: ProgramResultSchema,
} as const;

export const ReplyMessageSchema = z.discriminatedUnion('ok', [
  z.object({ v: version, id: z.string(), ok: z.literal(true), result: z.unknown() }),
  z.object({
    v: version,
    id: z.string(),
    ok: z.literal(false),
    error: z.object({ code: machineText(64), message: machineText(500) }),
  }),
]);
export type ReplyMessage = z.infer<typeof ReplyMessageSchema>;

export const WeatherMessageSchema = z.object({
  v: version,
  ts: timestamp,
  lat: latitude,
  lng: longitude,
  /** °C */
  temperature: z.number().min(-60).max(70),
  /** Relative humidity, % */
  humidity: z.number().min(0).max(100),
  /** Rain since the station's previous report, mm (the world's record hour is about 300). */
  rain: z.number().nonnegative().max(500),
  /** Wind speed at 2 m, m/s */
  wind: z.number().nonnegative().max(100).optional(),
  /** Global solar radiation, W/m² (for ETP; the solar constant is 1361) */
  solarRadiation: z.number().nonnegative().max(1500).optional(),
  /** Stations that compute ETP themselves may send the last 7 days' sum, mm. */
  etp7d: z.number().nonnegative().max(200).optional(),
  /**
   * Where the station stands, metres above sea level (the Dead Sea's shore to the highest farmland):
   * the air pressure in its ET0 (FAO-56 Eq. 7). Without it the server takes 100 m.
   */
  elevation: z.number().min(-450).max(5000).optional(),
});
export type WeatherMessage = z.infer<typeof WeatherMessageSchema>;

export const SoilMessageSchema = z.object({
  v: version,
  ts: timestamp,
  lat: latitude,
  lng: longitude,
  /** Volumetric soil moisture, % */
  moisture: z.number().min(0).max(100),
  /** Depth of the probe, cm */
  depth: z.number().positive().max(500).optional(),
});
export type SoilMessage = z.infer<typeof SoilMessageSchema>;
