import {
  type CommandMessage,
  CommandMessageSchema,
  IdentifyCommandSchema,
  PROTOCOL_VERSION,
  type ReplyMessage,
} from '@pivot/contracts';

/** What every command carries whatever its type. */
export type CommandEnvelope = { id: string; replyTo: string; expiresAt: number; type: string };

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

export function unsupportedReply(envelope: CommandEnvelope): ReplyMessage {
  const message = `This machine does not know the command type "${envelope.type.slice(0, 64)}"`;
  return { v: PROTOCOL_VERSION, id: envelope.id, ok: false, error: { code: 'unsupported', message } };
}
