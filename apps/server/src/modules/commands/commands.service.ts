import type { CommandType, ErrorCode, LogEventType } from '@pivot/contracts';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import type { CommandOutcome, CommandRequest, CommandResult, MqttGateway } from '../../gateway/mqtt-gateway';
import type { LogsService, NewLogEntry } from '../logs';
import { type TelemetryService, isOnline } from '../telemetry';

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

/**
 * Commands to machines, one way for all of them (motion, program upload, identify): send, wait
 * for the machine's answer, and on failure log it and throw the error to answer with. Success
 * is the caller's to act on and log, often in a transaction with what it changes. Nothing is
 * sent to a machine known to be offline, nor while the broker is away: the user is told at once
 * instead of after the timeout, and nothing is left queued to run later (decisions.md).
 */
export class MachineCommands {
  constructor(
    private readonly deps: {
      db: Database;
      gateway: Pick<MqttGateway, 'command'>;
      telemetry: Pick<TelemetryService, 'statesOf'>;
      logs: LogsService;
    },
  ) {}

  async run<T extends CommandType>(
    request: CommandRequest & { type: T },
    audit: CommandAudit,
    errors: FailureErrors = COMMAND_FAILURE_ERRORS,
  ): Promise<CommandResult<T>> {
    const { db, gateway, telemetry, logs } = this.deps;
    const machineId = audit.machine.internalId;
    // Identify asks a machine not added yet, whose presence may not be known: it is always asked.
    const offline =
      request.type !== 'identify' && !isOnline((await telemetry.statesOf(db, [machineId])).get(machineId));
    const outcome: Failure | CommandOutcome<T> = offline
      ? { kind: 'offline' }
      : await gateway.command<T>(machineId, request);
    if (outcome.kind === 'ok') return outcome.result;
    await logs.record(db, {
      eventType: typeof audit.failure === 'function' ? audit.failure(outcome) : audit.failure,
      actorUserId: audit.actorUserId,
      sprinkler: audit.machine,
      event: audit.event,
      details: describeFailure(outcome),
      ip: audit.ip,
    });
    throw new AppError(errors[outcome.kind]);
  }
}
