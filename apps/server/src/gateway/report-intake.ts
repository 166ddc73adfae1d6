import {
  MACHINE_LIMITS,
  MAX_CORNERS_PER_MESSAGE,
  MAX_MESSAGE_BYTES,
  MachineProgramMessageSchema,
  PresenceMessageSchema,
  SoilMessageSchema,
  TelemetryMessageSchema,
  type MessageExplanation,
  type SchemaProblem,
  WeatherMessageSchema,
  cornersIn,
} from '@pivot/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import { type LatLng, distanceM } from '../geo/geo';
import { parseJson } from './json-payload';
import { plainTelemetry } from './plain-telemetry';
import type { ReceiptJournal } from './receipt-journal';

/** What machines, stations and sensors report, by topic kind, already parsed with the protocol's schemas. */
export type MachineMessages = {
  telemetry: z.infer<typeof TelemetryMessageSchema>;
  presence: z.infer<typeof PresenceMessageSchema>;
  program: z.infer<typeof MachineProgramMessageSchema>;
  weather: z.infer<typeof WeatherMessageSchema>;
  soil: z.infer<typeof SoilMessageSchema>;
};
export type MachineMessageKind = keyof MachineMessages;
/** Where a message came from: the machine whose topic it is, and the device that measured it (the machine, or its station or sensor). */
export type MessageSource = { machineId: string; deviceId: string };
/**
 * Where messages of each kind are stored. The promise resolves once the message is stored (or
 * set aside as unstorable) and rejects when it could not be stored now (the database is away).
 */
export type MachineMessageHandlers = {
  [K in MachineMessageKind]: (source: MessageSource, message: MachineMessages[K]) => Promise<void>;
};

/** A message dropped before storage because it breaks the protocol, and why. */
export type RejectedMessage = MessageSource & {
  kind: MachineMessageKind;
  topic: string;
  payload: Buffer;
  /** A stable code: too_large, not_json, invalid, clock_ahead, too_old or beyond_arm. */
  reason: RejectionReason;
  /** What was wrong, for an administrator: the schema's complaints, or the timestamp. */
  detail: string;
  /** The same as a code and its parameters, for the reader's language. */
  explanation: RejectionExplanation;
};

export type RejectionExplanation = Exclude<MessageExplanation, { code: 'refused' }>;

export type RejectionReason = 'too_large' | 'not_json' | 'invalid' | 'clock_ahead' | 'too_old' | 'beyond_arm';

/** Where a machine's pivot stands and how long its arm is, as the machine told when it was added. */
export type MachineArm = { centre: LatLng; armLength: number };
/** The arms of the added machines; the sprinklers module keeps them. */
export type ArmDirectory = { armOf(machineId: string): MachineArm | undefined };

/** A machine's own report as it arrives, passed on for live updates to browsers. */
export type MachineEvent = {
  [K in 'telemetry' | 'presence' | 'program']: { kind: K; machineId: string; message: MachineMessages[K] };
}['telemetry' | 'presence' | 'program'];

/** `store`: hand the message to its handler; `announce`: pass it on as a live event. */
export type ReportUse = { store: boolean; announce: boolean };

export type ReportIntakeSettings = {
  /** Whether reports under a machine ID are taken: only registered controllers'. */
  admits: (machineId: string) => boolean;
  /** Where messages are written before the broker hears they were received; see ReceiptJournal. */
  journal: ReceiptJournal | undefined;
  logger: FastifyBaseLogger;
  /**
   * Reports taken in and not yet stored at which the broker is made to wait, and below which it
   * is heard again; by default HOLD_AT and RESUME_AT.
   */
  backlog?: { holdAt: number; resumeAt: number };
};

const MESSAGE_SCHEMAS = {
  telemetry: TelemetryMessageSchema,
  presence: PresenceMessageSchema,
  program: MachineProgramMessageSchema,
  weather: WeatherMessageSchema,
  soil: SoilMessageSchema,
} as const;

const UNADMITTED_LOG_INTERVAL_MS = 60_000;
/**
 * A server slower than its fleet (an overloaded core, a slow database) stops reading from the
 * broker at this many unstored reports, so they wait at the broker, in its queue for this
 * instance's session, not in the server's memory: about 20 s of 10,000 machines' reports.
 */
const HOLD_AT = 25_000;
const RESUME_AT = 10_000;
const NOTHING_TO_STORE = Promise.resolve();

/**
 * What machines report, taken in: journalled before the broker hears it arrived, checked against
 * the protocol (set aside with the reason when it breaks it), handed to the handler of its kind
 * to be stored, and passed to every watcher for live updates.
 */
export class ReportIntake {
  /** Messages dropped because no controller is registered under their machine ID, for health and the log. */
  private unadmitted = { count: 0, lastLoggedAt: 0 };
  private readonly handlers: Partial<MachineMessageHandlers>;
  private readonly watchers: ((event: MachineEvent) => void)[] = [];
  private readonly rejectionWatchers: ((rejected: RejectedMessage) => void)[] = [];
  private arms: ArmDirectory | undefined;
  /** Reports handed to their handler and not yet stored (or refused). */
  private unstored = 0;
  /** Waiting for room, while the backlog is past its limit. */
  private roomWaiters: (() => void)[] = [];
  private readonly backlog: { holdAt: number; resumeAt: number };

  constructor(
    private readonly settings: ReportIntakeSettings,
    handlers: Partial<MachineMessageHandlers> = {},
  ) {
    this.handlers = { ...handlers };
    this.backlog = settings.backlog ?? { holdAt: HOLD_AT, resumeAt: RESUME_AT };
  }

  handle<K extends MachineMessageKind>(kind: K, handler: MachineMessageHandlers[K]): void {
    (this.handlers as Record<K, MachineMessageHandlers[K]>)[kind] = handler;
  }

  knowArms(directory: ArmDirectory): void {
    this.arms = directory;
  }

  /**
   * Calls `then` at once while fewer reports than the limit wait to be stored, and otherwise once
   * the backlog is down to its resume mark: the storing connection acknowledges and reads the
   * next message only then, so the broker holds what comes meanwhile.
   */
  whenRoom(then: () => void): void {
    const { holdAt } = this.backlog;
    if (this.roomWaiters.length === 0 && this.unstored < holdAt) {
      then();
      return;
    }
    if (this.roomWaiters.length === 0) {
      this.settings.logger.warn(
        { unstored: this.unstored },
        'reports arrive faster than they are stored: the broker holds the next ones until the backlog shrinks',
      );
    }
    this.roomWaiters.push(then);
  }

  watch(listener: (event: MachineEvent) => void): void {
    this.watchers.push(listener);
  }

  watchRejections(listener: (rejected: RejectedMessage) => void): void {
    this.rejectionWatchers.push(listener);
  }

  /** How many messages were dropped since start because no controller is registered under their machine ID. */
  get unadmittedCount(): number {
    return this.unadmitted.count;
  }

  /** Messages taken from the broker (acknowledged to it) and handed to their handler, not stored yet. */
  get unstoredCount(): number {
    return this.unstored;
  }

  receive(topic: string, kind: MachineMessageKind, source: MessageSource, payload: Buffer, use: ReportUse): void {
    const journal = use.store ? this.settings.journal : undefined;
    if (journal && payload.length > 0) {
      // Written before the broker is told it arrived: now, or with the others of its read (writeOncePerRead).
      const receipt = journal.append({ topic, payload });
      this.receiveReport(kind, source, topic, payload, use)
        .then(
          () => journal.settle(receipt),
          // Not stored now (the database is away): kept for the next start.
          () => undefined,
        )
        .catch((error: unknown) => this.settings.logger.error({ err: error }, 'the receipt journal failed'));
      return;
    }
    // A failure to store was logged where it happened.
    this.receiveReport(kind, source, topic, payload, use).catch(() => undefined);
  }

  /** Resolves once the report is stored or has nothing to store; rejects if storing failed. */
  private receiveReport(
    kind: MachineMessageKind,
    { machineId, deviceId }: MessageSource,
    topic: string,
    payload: Buffer,
    use: ReportUse,
  ): Promise<void> {
    if (!this.settings.admits(machineId)) {
      if (use.store) this.dropUnadmitted(machineId);
      return NOTHING_TO_STORE;
    }
    // An empty retained payload clears a topic; there is nothing to report.
    if (payload.length === 0) return NOTHING_TO_STORE;
    const parsed = parseMessage(kind, payload, Date.now(), this.arms?.armOf(machineId));
    if (!parsed.ok) {
      if (use.store) this.reject({ machineId, deviceId, kind, topic, payload, ...parsed });
      return NOTHING_TO_STORE;
    }
    let stored = NOTHING_TO_STORE;
    try {
      if (use.store) stored = this.store(kind, { machineId, deviceId }, parsed.message, topic);
      if (use.announce && (kind === 'telemetry' || kind === 'presence' || kind === 'program')) {
        const event = { kind, machineId, message: parsed.message } as MachineEvent;
        for (const watcher of this.watchers) watcher(event);
      }
    } catch (error) {
      this.settings.logger.error({ err: error, topic }, 'handling a machine message failed');
    }
    return stored;
  }

  private store(kind: MachineMessageKind, source: MessageSource, message: unknown, topic: string): Promise<void> {
    const handler = this.handlers[kind] as ((source: MessageSource, message: unknown) => Promise<void>) | undefined;
    if (!handler) return NOTHING_TO_STORE;
    this.unstored += 1;
    const stored = handler(source, message).catch((error: unknown) => {
      this.settings.logger.error({ err: error, topic }, 'storing a machine message failed');
      throw error;
    });
    const settled = () => {
      this.unstored -= 1;
      if (this.roomWaiters.length > 0 && this.unstored < this.backlog.resumeAt) this.makeRoom();
    };
    stored.then(settled, settled);
    return stored;
  }

  private makeRoom(): void {
    const waiters = this.roomWaiters;
    this.roomWaiters = [];
    this.settings.logger.info(
      { unstored: this.unstored },
      'the backlog of reports shrank: reading from the broker again',
    );
    for (const then of waiters) then();
  }

  private reject(rejected: RejectedMessage): void {
    this.settings.logger.debug(
      { topic: rejected.topic, reason: rejected.reason },
      'dropped a message that does not follow the protocol',
    );
    for (const watcher of this.rejectionWatchers) watcher(rejected);
  }

  /** Counted always, logged at most once a minute: an unknown controller must not flood the log. */
  private dropUnadmitted(machineId: string): void {
    this.unadmitted.count += 1;
    const now = Date.now();
    if (now - this.unadmitted.lastLoggedAt < UNADMITTED_LOG_INTERVAL_MS) return;
    this.unadmitted.lastLoggedAt = now;
    this.settings.logger.warn(
      { machineId, droppedSinceStart: this.unadmitted.count },
      'dropped messages from a machine ID with no registered controller',
    );
  }
}

type ParsedMessage =
  | { ok: true; message: MachineMessages[MachineMessageKind] }
  | { ok: false; reason: RejectionReason; detail: string; explanation: RejectionExplanation };

/**
 * A message as the protocol allows it, or why not. One larger than any real message is not even
 * read. A report from a clock far ahead would win over every later one (the newest `ts` is the
 * state); one older than the backfill window is no delayed upload. Presence is exempt from the
 * latter: the retained "online" of a machine connected for weeks carries the moment it connected.
 * A report of an added machine may not reach beyond its arm. A program's polygons may have at
 * most MAX_CORNERS_PER_MESSAGE corners in all.
 */
function parseMessage(
  kind: MachineMessageKind,
  payload: Buffer,
  now: number,
  arm: MachineArm | undefined,
): ParsedMessage {
  if (payload.length > MAX_MESSAGE_BYTES) {
    return {
      ok: false,
      reason: 'too_large',
      detail: `${payload.length} bytes; at most ${MAX_MESSAGE_BYTES}`,
      explanation: { code: 'too_large', bytes: payload.length, limit: MAX_MESSAGE_BYTES },
    };
  }
  const json = parseJson(payload);
  if (json === undefined) {
    return { ok: false, reason: 'not_json', detail: 'not a JSON document', explanation: { code: 'not_json' } };
  }
  // Counted before the schema, whose check of every polygon is the work this bounds; only a
  // program has polygons, and the reports' hot path is spared the walk.
  const corners = kind === 'program' ? cornersIn(json, MAX_CORNERS_PER_MESSAGE) : 0;
  if (corners > MAX_CORNERS_PER_MESSAGE) {
    return {
      ok: false,
      reason: 'too_large',
      detail: `more than ${MAX_CORNERS_PER_MESSAGE} corners`,
      explanation: { code: 'too_many_corners', corners, limit: MAX_CORNERS_PER_MESSAGE },
    };
  }
  const checked = checkSchema(kind, json);
  if (!checked.ok) return checked;
  const message = checked.message;
  const ts = 'ts' in message ? message.ts : undefined;
  if (ts !== undefined && ts > now + MACHINE_LIMITS.clockSkewMs) {
    return {
      ok: false,
      reason: 'clock_ahead',
      detail: `ts ${new Date(ts).toISOString()} is ahead of the server`,
      explanation: { code: 'clock_ahead', ts },
    };
  }
  if (ts !== undefined && kind !== 'presence' && ts < now - MACHINE_LIMITS.backfillMs) {
    return {
      ok: false,
      reason: 'too_old',
      detail: `ts ${new Date(ts).toISOString()} is older than the backfill window`,
      explanation: { code: 'too_old', ts },
    };
  }
  const beyond = kind === 'telemetry' && arm ? beyondArm(message as MachineMessages['telemetry'], arm) : undefined;
  if (beyond) return { ok: false, reason: 'beyond_arm', ...beyond };
  return { ok: true, message };
}

/** The message as its kind's schema takes it, or the schema's complaints; a plainly valid report skips the schema. */
function checkSchema(kind: MachineMessageKind, json: unknown): ParsedMessage {
  const plain = kind === 'telemetry' ? plainTelemetry(json) : undefined;
  if (plain) return { ok: true, message: plain };
  const parsed = MESSAGE_SCHEMAS[kind].safeParse(json);
  if (parsed.success) return { ok: true, message: parsed.data };
  const detail = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(message)'}: ${issue.message}`);
  const issues = parsed.error.issues.flatMap(schemaIssues).slice(0, MAX_EXPLAINED_ISSUES);
  return { ok: false, reason: 'invalid', detail: detail.join('; '), explanation: { code: 'invalid', issues } };
}

type SchemaIssue = { path: string; problem: SchemaProblem; limit?: number };
/** A message of thousands of wrong fields is explained by its first few; a field's name (the sender's text) by its beginning. */
const MAX_EXPLAINED_ISSUES = 20;
const MAX_EXPLAINED_PATH_CHARS = 200;

/** A schema's complaint as a field and a code the reader's language words (its English message is in `detail`). */
function schemaIssues(issue: z.core.$ZodIssue): SchemaIssue[] {
  const fieldPath = (parts: readonly PropertyKey[]) =>
    (parts.map(String).join('.') || '(message)').slice(0, MAX_EXPLAINED_PATH_CHARS);
  const path = fieldPath(issue.path);
  switch (issue.code) {
    case 'invalid_type':
      return [{ path, problem: 'type' }];
    case 'too_big':
    case 'too_small': {
      const limit = Number(issue.code === 'too_big' ? issue.maximum : issue.minimum);
      return [{ path, problem: issue.code, ...(Number.isFinite(limit) ? { limit } : {}) }];
    }
    case 'invalid_format':
      return [{ path, problem: 'format' }];
    case 'unrecognized_keys':
      return issue.keys.map((key) => ({ path: fieldPath([...issue.path, key]), problem: 'unknown_field' as const }));
    default:
      return [{ path, problem: 'value' }];
  }
}

/**
 * What in the report reaches further than the machine's arm and an end gun's throw: its
 * `distance`, or a GPS point of its arm. Either would draw the arm, and count its water, where
 * the machine cannot be.
 */
function beyondArm(
  report: MachineMessages['telemetry'],
  arm: MachineArm,
): { detail: string; explanation: RejectionExplanation } | undefined {
  const endGunMargin = MACHINE_LIMITS.endGunMarginM;
  const reach = arm.armLength + endGunMargin;
  const limit = `the machine's arm is ${arm.armLength} m, and an end gun may add ${endGunMargin} m`;
  if (report.distance > reach) {
    return {
      detail: `distance ${report.distance} m is beyond its reach: ${limit}`,
      explanation: { code: 'distance_beyond_arm', distance: report.distance, armLength: arm.armLength, endGunMargin },
    };
  }
  for (const [lng, lat] of report.position?.coordinates ?? []) {
    const exactlyFromCentre = distanceM(arm.centre, { lat, lng });
    if (exactlyFromCentre > reach) {
      const fromCentre = Math.round(exactlyFromCentre);
      return {
        detail: `position [${lng}, ${lat}] is ${fromCentre} m from the pivot, beyond its reach: ${limit}`,
        explanation: { code: 'position_beyond_arm', lng, lat, fromCentre, armLength: arm.armLength, endGunMargin },
      };
    }
  }
  return undefined;
}
