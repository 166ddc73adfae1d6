import {
  COMMAND_CLOCK_TOLERANCE_MS,
  type CommandMessage,
  CommandMessageSchema,
  IdentifyCommandSchema,
  PROTOCOL_VERSION,
  type ReplyMessage,
} from '@pivot/contracts';

/** A reply saying the command was not carried out, and why. */
export type Refusal = Extract<ReplyMessage, { ok: false }>;

/** What every command carries whatever its type. */
export type CommandEnvelope = { id: string; replyTo: string; sentAt: number; expiresAt: number; type: string };

export type ParsedCommand =
  | { kind: 'known'; command: CommandMessage }
  /** A well-formed command of a type this machine does not know: answered `unsupported`. */
  | { kind: 'unsupported'; envelope: CommandEnvelope }
  | { kind: 'malformed'; reason: string };

const EnvelopeSchema = IdentifyCommandSchema.omit({ type: true });
const KNOWN_TYPES: readonly unknown[] = CommandMessageSchema.options.map((option) => option.shape.type.value);

export function parseCommand(payload: Buffer): ParsedCommand {
  let json: unknown;
  try {
    json = JSON.parse(payload.toString('utf8'));
  } catch {
    return { kind: 'malformed', reason: 'not JSON' };
  }
  const command = CommandMessageSchema.safeParse(json);
  if (command.success) return { kind: 'known', command: command.data };
  const envelope = EnvelopeSchema.safeParse(json);
  const type = typeof json === 'object' && json !== null && 'type' in json ? json.type : undefined;
  if (!envelope.success || typeof type !== 'string' || KNOWN_TYPES.includes(type)) {
    return { kind: 'malformed', reason: command.error.issues.map((issue) => issue.message).join('; ') };
  }
  return { kind: 'unsupported', envelope: { ...envelope.data, type } };
}

export function okReply(id: string, result: unknown): ReplyMessage {
  return { v: PROTOCOL_VERSION, id, ok: true, result };
}

export function unsupportedReply(envelope: CommandEnvelope): Refusal {
  const message = `This machine does not know the command type "${envelope.type.slice(0, 64)}"`;
  return refusal(envelope.id, 'unsupported', message);
}

/**
 * Whether a command may be carried out now by the machine's own clock (docs/protocol.md,
 * "Acting only in time"): null if so, otherwise the refusal to answer with. A clock within the tolerance
 * never acts after the server gave up; one further off refuses rather than acting out of time.
 */
export function refusalByClock(envelope: CommandEnvelope, now: number): Refusal | null {
  const clock = `this machine's clock reads ${new Date(now).toISOString()}`;
  const tolerance = `${COMMAND_CLOCK_TOLERANCE_MS} ms`;
  if (now < envelope.sentAt - COMMAND_CLOCK_TOLERANCE_MS) {
    const sent = new Date(envelope.sentAt).toISOString();
    const message = `Sent at ${sent} by the server's clock, but ${clock}: more than ${tolerance} behind, or the server's is ahead`;
    return refusal(envelope.id, 'clock_skew', message);
  }
  if (now > envelope.expiresAt - COMMAND_CLOCK_TOLERANCE_MS) {
    const expires = new Date(envelope.expiresAt).toISOString();
    const message = `Expires at ${expires} by the server's clock, and ${clock}: less than ${tolerance} before, too late to act (the command came late, or this clock is ahead)`;
    return refusal(envelope.id, 'expired', message);
  }
  return null;
}

function refusal(id: string, code: string, message: string): Refusal {
  return { v: PROTOCOL_VERSION, id, ok: false, error: { code, message } };
}
