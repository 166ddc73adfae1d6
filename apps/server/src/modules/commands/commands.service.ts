import { randomUUID } from 'node:crypto';
import type { CommandType, ErrorCode, LogEventType } from '@pivot/contracts';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import type { CommandOutcome, CommandRequest, CommandResult, MqttGateway } from '../../gateway/mqtt-gateway';
import type { LogsService, NewLogEntry } from '../logs';
import { type TelemetryService, isOnline } from '../telemetry';
import { insertCommand, settleAbandoned, settleCommand } from './commands.repository';
import type { CommandRecordOutcome } from './commands.table';

/** A command that was not answered well, or not sent: to a machine known to be offline, or with the broker away. */
type Failure = Exclude<CommandOutcome<CommandType>, { kind: 'ok' }> | { kind: 'offline' };

/** What the activity log says of a command: who sent it, to which machine, about what. */
export type CommandAudit = Pick<NewLogEntry, 'actorUserId' | 'ip' | 'event'> & {
  machine: NonNullable<NewLogEntry['sprinkler']>;
  /** The event type a failure is logged as. */
  failure: LogEventType | ((failure: Failure) => LogEventType);
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

/**
 * Commands to machines, one way for all of them (motion, program upload, identify): record,
 * send, wait for the machine's answer, record how it ended, and on failure log it and throw the
 * error to answer with. Success is the caller's to act on and log, often in a transaction with
 * what it changes. Nothing is sent to a machine known to be offline, nor while the broker is
 * away: the user is told at once instead of after the timeout, and nothing is left queued to run
 * later (decisions.md). A command is stored before it is published, so that one whose server
 * stopped while waiting is still settled (as unknown) and logged.
 */
export class MachineCommands {
  constructor(
    private readonly deps: {
      db: Database;
      gateway: Pick<MqttGateway, 'command'>;
      telemetry: Pick<TelemetryService, 'statesOf'>;
      logs: LogsService;
      commandTimeoutMs: number;
    },
  ) {}

  async run<T extends CommandType>(
    request: CommandRequest & { type: T },
    audit: CommandAudit,
    errors: FailureErrors = COMMAND_FAILURE_ERRORS,
  ): Promise<CommandResult<T>> {
    const { db, gateway, telemetry, logs } = this.deps;
    const machineId = audit.machine.internalId;
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
    // Identify asks a machine not added yet, whose presence may not be known: it is always asked.
    const offline =
      request.type !== 'identify' && !isOnline((await telemetry.statesOf(db, [machineId])).get(machineId));
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
    throw new AppError(errors[outcome.kind]);
  }

  /**
   * Settles the commands left pending by a server that stopped while it waited (this one before
   * a restart, or another instance), and logs each as its command's failure. Only commands well
   * past their timeout: those of a running instance are still being waited for.
   */
  async settleAbandoned(now = Date.now()): Promise<number> {
    const { db, logs, commandTimeoutMs } = this.deps;
    const abandoned = await settleAbandoned(db, new Date(now - commandTimeoutMs - ABANDONED_AFTER_MS), ABANDONED);
    for (const command of abandoned) {
      await logs.record(db, {
        eventType: command.failureEvent,
        actorUserId: command.actorUserId,
        sprinkler: { id: command.sprinklerId, name: command.sprinklerName, internalId: command.machineId },
        event: command.event,
        details: ABANDONED,
        ip: command.ip,
      });
    }
    return abandoned.length;
  }
}

/** Beyond its timeout, how long a command may stay pending before it counts as abandoned. */
const ABANDONED_AFTER_MS = 30_000;

function failureEvent(audit: CommandAudit, failure: Failure): LogEventType {
  return typeof audit.failure === 'function' ? audit.failure(failure) : audit.failure;
}
