import type { CommandType, ErrorCode, LogEventType } from '@pivot/contracts';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import type { CommandOutcome, CommandRequest, CommandResult, MqttGateway } from '../../gateway/mqtt-gateway';
import type { LogsService, NewLogEntry } from '../logs';

type Failure = Exclude<CommandOutcome<CommandType>, { kind: 'ok' }>;

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
};

/** Words for the log of why a command failed. */
function describeFailure(failure: Failure): string {
  if (failure.kind === 'timeout') return 'no answer in time';
  if (failure.kind === 'refused') return `refused: ${failure.code} (${failure.message})`;
  return 'unreadable answer';
}

/**
 * Commands to machines, one way for all of them (motion, program upload, identify): send, wait
 * for the machine's answer, and on failure log it and throw the error to answer with. Success
 * is the caller's to act on and log, often in a transaction with what it changes.
 */
export class MachineCommands {
  constructor(
    private readonly deps: {
      db: Database;
      gateway: Pick<MqttGateway, 'command'>;
      logs: LogsService;
    },
  ) {}

  async run<T extends CommandType>(
    request: CommandRequest & { type: T },
    audit: CommandAudit,
    errors: FailureErrors = COMMAND_FAILURE_ERRORS,
  ): Promise<CommandResult<T>> {
    const { db, gateway, logs } = this.deps;
    const outcome = await gateway.command<T>(audit.machine.internalId, request);
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
