import { COMMAND_CLOCK_TOLERANCE_MS as TOLERANCE, ReplyMessageSchema } from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import { refusalByClock } from '../src/commands';

describe('the clock rule for commands', () => {
  const sentAt = Date.UTC(2026, 5, 1, 12);
  const envelope = {
    id: 'c1',
    replyTo: 'pivot/v1/servers/s/replies/M',
    type: 'motion',
    sentAt,
    expiresAt: sentAt + 5000,
  };

  it.each([
    ['the tolerance before it was sent', sentAt - TOLERANCE],
    ['when it was sent', sentAt],
    ['the tolerance before it expires', envelope.expiresAt - TOLERANCE],
  ])('acts on a command at %s', (_moment, now) => {
    expect(refusalByClock(envelope, now)).toBeNull();
  });

  it.each([
    ['clock_skew', 'a millisecond more than the tolerance before it was sent', sentAt - TOLERANCE - 1],
    ['expired', 'a millisecond less than the tolerance before it expires', envelope.expiresAt - TOLERANCE + 1],
    ['expired', 'when it expires', envelope.expiresAt],
  ])('refuses it as %s %s', (code, _moment, now) => {
    const refusal = refusalByClock(envelope, now);
    expect(refusal).toMatchObject({ v: 1, id: 'c1', ok: false, error: { code } });
    expect(ReplyMessageSchema.safeParse(refusal).success).toBe(true);
  });
});
