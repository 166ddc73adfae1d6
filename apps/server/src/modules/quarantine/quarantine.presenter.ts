import type { QuarantinedMessage } from '@pivot/contracts';
import type { QuarantinedMessageRow } from './quarantine.table';

export function presentQuarantined(row: QuarantinedMessageRow): QuarantinedMessage {
  return {
    id: row.id,
    receivedAt: row.receivedAt.getTime(),
    machineId: row.machineId,
    deviceId: row.deviceId,
    kind: row.kind,
    topic: row.topic,
    reason: row.reason,
    detail: row.detail,
    explanation: row.explanation,
    payloadPreview: visibleText(new TextDecoder('utf-8').decode(row.payloadHead)),
    payloadBytes: row.payloadBytes,
    payloadTruncated: row.payloadBytes > row.payloadHead.length,
  };
}

/**
 * Text safe to store in a text column and to show: control characters (NUL above all, which
 * PostgreSQL refuses in text) become their visible symbols from the Control Pictures block
 * (U+2400 + code: ␀, ␛…; DEL ␡), and those that have none (C1) the replacement character. Line
 * breaks and tabs stay, so a pretty-printed payload reads as sent.
 */
export function visibleText(text: string): string {
  return text.replace(/\p{Cc}/gu, (character) => {
    const code = character.charCodeAt(0);
    if (KEPT_CONTROLS.has(character)) return character;
    if (code < 0x20) return String.fromCodePoint(0x2400 + code);
    return code === 0x7f ? '\u2421' : '\uFFFD';
  });
}

const KEPT_CONTROLS = new Set(['\n', '\r', '\t']);

/** Every text in a stored value made safe as `visibleText` makes it (jsonb refuses NUL as text does). */
export function visibleTexts<T>(value: T): T {
  return JSON.parse(JSON.stringify(value), (_key, field: unknown) =>
    typeof field === 'string' ? visibleText(field) : field,
  ) as T;
}
