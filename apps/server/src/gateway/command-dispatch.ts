import { randomUUID } from 'node:crypto';
import {
  COMMAND_RESULT_SCHEMAS,
  type CommandMessage,
  type CommandType,
  PROTOCOL_VERSION,
  type ReplyMessage,
  ReplyMessageSchema,
  topics,
} from '@pivot/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { MqttClient } from 'mqtt';
import type { z } from 'zod';
import { spokenVersion } from './broker-connection';
import { parseJson } from './json-payload';

/** What a machine answers when a command of this type succeeds. */
export type CommandResult<T extends CommandType> = z.infer<(typeof COMMAND_RESULT_SCHEMAS)[T]>;

/**
 * How a command ended: answered, refused by the machine, answered with garbage, not answered in
 * time, or not sent at all because the broker cannot be reached now.
 */
export type CommandOutcome<T extends CommandType> =
  | { kind: 'ok'; result: CommandResult<T> }
  | { kind: 'refused'; code: string; message: string }
  | { kind: 'malformed' }
  | { kind: 'timeout' }
  | { kind: 'broker_down' };

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type CommandRequest = DistributiveOmit<CommandMessage, 'v' | 'id' | 'replyTo' | 'sentAt' | 'expiresAt'>;

/**
 * A machine's answer to a command this instance no longer waits for: it came after the timeout,
 * or after a restart (a kept session delivers what arrived meanwhile). Its command's record can
 * still learn the truth from it.
 */
export type LateReply = { machineId: string; id: string; reply: ReplyMessage | 'unreadable' };

export type CommandDispatchSettings = {
  /** This server instance's id: replies come to its own reply topic. */
  serverId: string;
  commandTimeoutMs: number;
  /** Whether a controller is registered under a machine ID: only those can answer. */
  admits: (machineId: string) => boolean;
  logger: FastifyBaseLogger;
};

type PendingCommand = {
  type: CommandType;
  machineId: string;
  settle: (outcome: CommandOutcome<CommandType>) => void;
};

/** Far more commands than are answered within the time a duplicate reply may trail its first copy. */
const ANSWERED_REMEMBERED = 10_000;

/**
 * Commands as request/response: each published with a correlation id and this instance's reply
 * topic, then waited for until the timeout. Outcomes are values, never exceptions. A reply that
 * comes when nobody waits any more is passed to the late-reply watchers.
 */
export class CommandDispatch {
  private readonly pending = new Map<string, PendingCommand>();
  /** Ids of the latest commands answered in time, oldest first. */
  private readonly answered = new Set<string>();
  private readonly lateReplyWatchers: ((late: LateReply) => void)[] = [];

  constructor(
    private readonly settings: CommandDispatchSettings,
    /** The connection commands go out on, once there is one. */
    private readonly broker: () => MqttClient | undefined,
  ) {}

  watchLateReplies(listener: (late: LateReply) => void): void {
    this.lateReplyWatchers.push(listener);
  }

  /**
   * Sends a command and waits for its reply until the timeout. The outcome is never an
   * exception: a machine that does not answer is an ordinary outcome the caller must report.
   */
  async send<T extends CommandType>(
    machineId: string,
    request: CommandRequest & { type: T },
    id: string = randomUUID(),
  ): Promise<CommandOutcome<T>> {
    // No registered controller can connect under this ID, so none can answer: nothing is sent.
    if (!this.settings.admits(machineId)) return { kind: 'timeout' };
    // Nor is anything queued while the broker is away, to run when it is back and nobody waits.
    const client = this.broker();
    if (!client?.connected) return { kind: 'broker_down' };
    const message = {
      ...request,
      v: PROTOCOL_VERSION,
      id,
      replyTo: topics.replies(this.settings.serverId, machineId),
      sentAt: Date.now(),
      expiresAt: Date.now() + this.settings.commandTimeoutMs,
    };
    const outcome = new Promise<CommandOutcome<T>>((resolve) => {
      const timer = setTimeout(() => settle({ kind: 'timeout' }), this.settings.commandTimeoutMs);
      const settle = (result: CommandOutcome<CommandType>) => {
        clearTimeout(timer);
        this.pending.delete(id);
        if (result.kind !== 'timeout') this.rememberAnswered(id);
        resolve(result as CommandOutcome<T>);
      };
      this.pending.set(id, { type: request.type, machineId, settle });
    });
    // On MQTT 5 the broker itself drops a command nobody waits for any more, such as one queued
    // for a machine that reconnects later; on 3.1.1 the machine's clock rule alone stops it.
    const expiry = { messageExpiryInterval: Math.ceil(this.settings.commandTimeoutMs / 1000) };
    const publishOptions = spokenVersion(client) === 5 ? { qos: 1 as const, properties: expiry } : { qos: 1 as const };
    client.publish(topics.commands(machineId), JSON.stringify(message), publishOptions, (error) => {
      if (error) this.settings.logger.warn({ err: error, machineId }, 'publishing a command failed');
    });
    return outcome;
  }

  /** Ends every command still waiting as unanswered: the server is stopping. */
  giveUpWaiting(): void {
    for (const pending of this.pending.values()) pending.settle({ kind: 'timeout' });
  }

  /** A reply counts only from the machine the command went to: the topic names who answers. */
  receiveReply(machineId: string, payload: Buffer): void {
    const body = parseJson(payload);
    const id = typeof body === 'object' && body !== null && 'id' in body ? String(body.id) : salvageId(payload);
    if (id === undefined) return;
    const reply = ReplyMessageSchema.safeParse(body);
    const pending = this.pending.get(id);
    // A second copy of an answer already taken (QoS 1 delivers at least once) tells nothing new.
    if (!pending && this.answered.has(id)) return;
    if (!pending) {
      const late = { machineId, id, reply: reply.success ? reply.data : ('unreadable' as const) };
      for (const watcher of this.lateReplyWatchers) watcher(late);
      return;
    }
    if (pending.machineId !== machineId) return;
    if (!reply.success) {
      pending.settle({ kind: 'malformed' });
      return;
    }
    if (!reply.data.ok) {
      pending.settle({ kind: 'refused', code: reply.data.error.code, message: reply.data.error.message });
      return;
    }
    const result = COMMAND_RESULT_SCHEMAS[pending.type].safeParse(reply.data.result);
    pending.settle(result.success ? { kind: 'ok', result: result.data } : { kind: 'malformed' });
  }

  private rememberAnswered(id: string): void {
    this.answered.add(id);
    if (this.answered.size > ANSWERED_REMEMBERED) this.answered.delete(this.answered.values().next().value!);
  }
}

/** The correlation id of a reply that is not valid JSON, so that it still ends its command as unreadable. */
function salvageId(payload: Buffer): string | undefined {
  return /"id"\s*:\s*"([^"]{1,64})"/.exec(payload.toString('utf8'))?.[1];
}
