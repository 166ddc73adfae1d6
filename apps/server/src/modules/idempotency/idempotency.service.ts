import { createHash } from 'node:crypto';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import { claimKey, deleteRequestsBefore, findRequest, saveAnswer } from './idempotency.repository';

/** What a client may send as a key: a UUID, or any 8–100 printable characters. */
const KEY_PATTERN = /^[\x21-\x7e]{8,100}$/;
const KEPT_FOR_MS = 24 * 60 * 60_000;
const POLL_MS = 100;

export type IdempotentCall = { userId: number; key: string; method: string; url: string; body: unknown };
export type StoredAnswer = { status: number; contentType: string | null; body: string };

/**
 * Idempotency keys (as in the IETF draft and Stripe's API): a request repeated with its key is
 * answered as the first one was, and one that arrives while the first is still being handled
 * waits for its answer, so a retried or doubled action is carried out once.
 */
export class IdempotencyService {
  constructor(
    private readonly db: Database,
    /** How long a repeat waits for the first request's answer: longer than a command takes. */
    private readonly waitMs: number,
  ) {}

  /** 'first' when this call is to be handled (and its answer saved), or the answer to give again. */
  async begin(call: IdempotentCall): Promise<'first' | StoredAnswer> {
    if (!KEY_PATTERN.test(call.key)) throw new AppError('validation_error');
    const fingerprint = createHash('sha256')
      .update(`${call.method} ${call.url}\n${JSON.stringify(call.body ?? null)}`)
      .digest('base64url');
    const deadline = Date.now() + this.waitMs;
    for (;;) {
      if (await claimKey(this.db, { userId: call.userId, key: call.key, fingerprint })) return 'first';
      const stored = await findRequest(this.db, call);
      if (stored && stored.fingerprint !== fingerprint) throw new AppError('idempotency_key_reused');
      if (stored && stored.status !== null && stored.body !== null) {
        return { status: stored.status, contentType: stored.contentType, body: stored.body };
      }
      // Still being handled, or interrupted (the server stopped mid-way): its outcome is unknown here.
      if (Date.now() > deadline) throw new AppError('request_in_progress');
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  finish(call: Pick<IdempotentCall, 'userId' | 'key'>, answer: StoredAnswer): Promise<void> {
    return saveAnswer(this.db, call, answer);
  }

  prune(now = Date.now()): Promise<void> {
    return deleteRequestsBefore(this.db, new Date(now - KEPT_FOR_MS));
  }
}
