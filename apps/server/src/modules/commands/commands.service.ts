import { randomUUID } from 'node:crypto';
import {
  COMMAND_CLOCK_TOLERANCE_MS,
  COMMAND_RESULT_SCHEMAS,
  type CommandType,
  type ErrorCode,
  type LogEventType,
} from '@pivot/contracts';
import type { Database, Queryable } from '../../db/client';
import { AppError } from '../../errors';
import type { CommandOutcome, CommandRequest, CommandResult, LateReply, MqttGateway } from '../../gateway/mqtt-gateway';
import type { LogsService, NewLogEntry } from '../logs';
import { type TelemetryService, isOnline } from '../telemetry';
import { insertCommand, lastMotionSentAt, reviseCommand, settleAbandoned, settleCommand } from './commands.repository';
import type { CommandRecordOutcome, MachineCommandRow } from './commands.table';

/** A command that was not answered well, or not sent: to a machine known to be offline, or with the broker away. */
type Failure = Exclude<CommandOutcome<CommandType>, { kind: 'ok' }> | { kind: 'offline' };

/** What the activity log says of a command: who sent it, to which machine, about what. */
export type CommandAudit = Pick<NewLogEntry, 'actorUserId' | 'ip' | 'event'> & {
  machine: NonNullable<NewLogEntry['sprinkler']>;
  /** The event type a failure is logged as. */
  failure: LogEventType | ((failure: Failure) => LogEventType);
  /** Sent by the autopilot's hands for its own pass, whoever asked for it (CommandSending). */
  autopilot?: true;
};

/**
 * A command about to be published to a machine: which machine, of which kind, and who sends it
 * (`actorUserId` null: the server itself, e.g. the autopilot's watcher). What a module built on
 * this one is told before each such send (`MachineCommands.tellSendsTo`).
 */
export type CommandSending = {
  type: CommandType;
  machine: NonNullable<NewLogEntry['sprinkler']>;
  actorUserId: number | null;
  ip: string;
  /**
   * Sent by the autopilot's hands for its own pass: by the watcher, or for the person who asked
   * for it with one tap ("Water now as advised", the person its actor). Not a person's own command.
   */
  autopilot?: true;
};

/** The error a failed command answers with, by how it failed. */
export type FailureErrors = Record<Failure['kind'], ErrorCode>;

const COMMAND_FAILURE_ERRORS: FailureErrors = {
  timeout: 'sprinkler_unresponsive',
  refused: 'command_refused',
  malformed: 'sprinkler_processing_error',
  broker_down: 'broker_unreachable',
  offline: 'sprinkler_offline',
};

/** Words for the log of why a command failed. */
function describeFailure(failure: Failure): string {
  switch (failure.kind) {
    case 'timeout':
      return 'no answer in time';
    case 'refused':
      return `refused: ${failure.code} (${failure.message})`;
    case 'malformed':
      return 'unreadable answer';
    case 'broker_down':
      return 'not sent: the message broker cannot be reached';
    case 'offline':
      return 'not sent: the machine is offline';
  }
}

/** How each failure is kept in the command's record. */
const RECORDED_FAILURES: Record<Failure['kind'], CommandRecordOutcome> = {
  timeout: 'expired',
  refused: 'refused',
  malformed: 'unreadable',
  broker_down: 'not_sent',
  offline: 'not_sent',
};

const ABANDONED = 'outcome unknown: the server stopped while it waited for the machine';
const CONFIRMED_BY_REPORT = "carried out: the machine's report after the server stopped waiting shows it";
const CONFIRMED_LATE = 'confirmed by the machine after the server stopped waiting';

/**
 * What the log says when a command turns out to have succeeded after all. A late identify adds
 * no machine (the administrator was told it did not answer, and may add it again).
 */
const SUCCESS_EVENTS: Record<CommandType, LogEventType | undefined> = {
  motion: 'sprinkler_motion_success',
  program: 'program_sent',
  identify: undefined,
};

/**
 * Commands to machines, one way for all of them (motion, program upload, identify): record,
 * send, wait for the machine's answer, record how it ended, and on failure log it and throw the
 * error to answer with. Success is the caller's to act on and log, often in a transaction with
 * what it changes. Nothing is sent to a machine known to be offline, nor while the broker is
 * away: the user is told at once instead of after the timeout, and nothing is left queued to run
 * later (docs/product.md#states). A command is stored before it is published, so that one whose server
 * stopped while waiting is still settled (as unknown) and logged.
 */
export class MachineCommands {
  private beforeSend?: (sending: CommandSending) => Promise<void>;

  constructor(
    private readonly deps: {
      db: Database;
      gateway: Pick<MqttGateway, 'command' | 'connected'>;
      telemetry: Pick<TelemetryService, 'statesOf'>;
      logs: LogsService;
      commandTimeoutMs: number;
    },
  ) {}

  /**
   * Who is told, and waited for, before a command is published to a machine (online, broker
   * reachable): the autopilot, a module built on this one, hands itself here so that a person's
   * command takes the machine over from it (docs/autopilot.md). A failure of the listener sends
   * nothing and is the caller's error.
   */
  tellSendsTo(listener: (sending: CommandSending) => Promise<void>): void {
    this.beforeSend = listener;
  }

  async run<T extends CommandType>(
    request: CommandRequest & { type: T },
    audit: CommandAudit,
    errors: FailureErrors = COMMAND_FAILURE_ERRORS,
  ): Promise<CommandResult<T>> {
    const { db, gateway, telemetry, logs } = this.deps;
    const machineId = audit.machine.internalId;
    // With the broker away every machine looks offline: the broker is what the user must hear of.
    // Identify asks a machine not added yet, whose presence may not be known: it is always asked.
    const offline =
      gateway.connected &&
      request.type !== 'identify' &&
      !isOnline((await telemetry.statesOf(db, [machineId])).get(machineId));
    if (!offline && gateway.connected && request.type !== 'identify' && this.beforeSend) {
      await this.beforeSend({
        type: request.type,
        machine: audit.machine,
        actorUserId: audit.actorUserId,
        ip: audit.ip,
        ...(audit.autopilot ? { autopilot: true } : {}),
      });
    }
    const id = randomUUID();
    await insertCommand(db, {
      id,
      machineId,
      type: request.type,
      actorUserId: audit.actorUserId,
      sprinklerId: audit.machine.id,
      sprinklerName: audit.machine.name,
      event: audit.event,
      ip: audit.ip,
      failureEvent: failureEvent(audit, { kind: 'timeout' }),
    });
    const sentAt = Date.now();
    const outcome: Failure | CommandOutcome<T> = offline
      ? { kind: 'offline' }
      : await gateway.command<T>(machineId, request, id);
    if (outcome.kind === 'ok') {
      await settleCommand(db, id, 'confirmed', '');
      return outcome.result;
    }
    const details = describeFailure(outcome);
    await settleCommand(db, id, RECORDED_FAILURES[outcome.kind], details);
    await logs.record(db, {
      eventType: failureEvent(audit, outcome),
      actorUserId: audit.actorUserId,
      sprinkler: audit.machine,
      event: audit.event,
      details,
      ip: audit.ip,
    });
    throw new AppError(this.clockIsWrong(outcome, Date.now() - sentAt) ? 'machine_clock_wrong' : errors[outcome.kind]);
  }

  /**
   * Whether the machine refused because its clock is off (docs/protocol.md, "Acting only in
   * time"): it says so, or it calls a command expired that cannot have been, arriving well
   * before its expiry. An "expired" near the deadline is a slow delivery, not a wrong clock.
   */
  private clockIsWrong(failure: Failure, answeredAfterMs: number): boolean {
    if (failure.kind !== 'refused') return false;
    if (failure.code === 'clock_skew') return true;
    return failure.code === 'expired' && answeredAfterMs < this.deps.commandTimeoutMs - 2 * COMMAND_CLOCK_TOLERANCE_MS;
  }

  /**
   * Settles the commands left pending by a server that stopped while it waited (this one before
   * a restart, or another instance), and logs each as its command's failure. Only commands well
   * past their timeout: those of a running instance are still being waited for.
   */
  /** When a person last commanded a motion of each of the machines (by broker ID). */
  lastMotionAt(db: Queryable, machineIds: string[]): Promise<Map<string, number>> {
    return lastMotionSentAt(db, machineIds);
  }

  async settleAbandoned(now = Date.now()): Promise<number> {
    const { db, logs, commandTimeoutMs } = this.deps;
    const abandoned = await settleAbandoned(db, new Date(now - commandTimeoutMs - ABANDONED_AFTER_MS), ABANDONED);
    for (const command of abandoned) {
      if (await this.reportShowsDone(command)) {
        await reviseCommand(db, command, () => ({ outcome: 'confirmed', detail: CONFIRMED_BY_REPORT }));
        await this.logSuccess(command, CONFIRMED_BY_REPORT);
        continue;
      }
      await logs.record(db, { ...commandLogEntry(command), eventType: command.failureEvent, details: ABANDONED });
    }
    return abandoned.length;
  }

  /**
   * A machine's answer that came after the server stopped waiting (late, or across a restart of
   * the server): the command's record takes the truth from it, and the log tells it where it
   * changes what the user was told. A command left pending by a restart gets its only log entry here.
   */
  async settleLate({ machineId, id, reply }: LateReply): Promise<void> {
    const { db, logs } = this.deps;
    const command = await reviseCommand(db, { id, machineId }, ({ type }) => judgeLateReply(reply, type));
    if (!command) return;
    const { outcome, detail } = judgeLateReply(reply, command.type);
    if (outcome === 'confirmed') await this.logSuccess(command, detail);
    // An expired command's failure is logged already, and the machine did not act either way.
    if (outcome === 'refused' && command.outcome !== 'expired') {
      await logs.record(db, { ...commandLogEntry(command), eventType: command.failureEvent, details: detail });
    }
  }

  /** Whether the machine's latest report, after the command was sent, shows the motion it asked for. */
  private async reportShowsDone(command: MachineCommandRow): Promise<boolean> {
    if (command.type !== 'motion') return false;
    const state = (await this.deps.telemetry.statesOf(this.deps.db, [command.machineId])).get(command.machineId);
    // A motion command's log event is the motion asked for, which is also the status it leads to.
    return Boolean(state?.reportedAt && state.reportedAt > command.sentAt && state.status === command.event);
  }

  private async logSuccess(command: MachineCommandRow, details: string): Promise<void> {
    const eventType = SUCCESS_EVENTS[command.type];
    if (eventType) await this.deps.logs.record(this.deps.db, { ...commandLogEntry(command), eventType, details });
  }
}

/** What a machine's late answer says of its command. */
function judgeLateReply(
  reply: LateReply['reply'],
  type: CommandType,
): { outcome: CommandRecordOutcome; detail: string } {
  if (reply === 'unreadable') return { outcome: 'unreadable', detail: 'unreadable answer' };
  if (!reply.ok) return { outcome: 'refused', detail: `refused late: ${reply.error.code} (${reply.error.message})` };
  return COMMAND_RESULT_SCHEMAS[type].safeParse(reply.result).success
    ? { outcome: 'confirmed', detail: CONFIRMED_LATE }
    : { outcome: 'unreadable', detail: 'unreadable answer' };
}

/** Who sent the command to which machine, as its log entries tell it. */
function commandLogEntry(command: MachineCommandRow) {
  return {
    actorUserId: command.actorUserId,
    sprinkler: { id: command.sprinklerId, name: command.sprinklerName, internalId: command.machineId },
    event: command.event,
    ip: command.ip,
  };
}

/**
 * Beyond its timeout, how long a command may stay pending before it counts as abandoned: the
 * instance that sent it settles it at its timeout, give or take a busy moment.
 */
const ABANDONED_AFTER_MS = 5_000;

function failureEvent(audit: CommandAudit, failure: Failure): LogEventType {
  return typeof audit.failure === 'function' ? audit.failure(failure) : audit.failure;
}
