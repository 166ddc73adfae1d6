import { createHash } from 'node:crypto';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import { hashToken } from '../../secrets';
import { claimKey, deleteRequestsBefore, findRequest, saveAnswer } from './idempotency.repository';
import { openAnswer, sealAnswer } from './sealed-answers';

/** What a client may send as a key: a UUID, or any 8–100 printable characters. */
const KEY_PATTERN = /^[\x21-\x7e]{8,100}$/;
const KEPT_FOR_MS = 24 * 60 * 60_000;
const POLL_MS = 100;

export type IdempotentCall = { userId: number; key: string; method: string; url: string; body: unknown };
/** This process: the instance's SERVER_ID, and a run that is new at every start. */
export type Claimant = { serverId: string; run: string };
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
    private readonly claimant: Claimant,
  ) {}

  /** 'first' when this call is to be handled (and its answer saved), or the answer to give again. */
  async begin(call: IdempotentCall): Promise<'first' | StoredAnswer> {
    if (!KEY_PATTERN.test(call.key)) throw new AppError('validation_error');
    const fingerprint = createHash('sha256')
      .update(`${call.method} ${call.url}\n${JSON.stringify(call.body ?? null)}`)
      .digest('base64url');
    const stored = { userId: call.userId, key: hashToken(call.key) };
    const deadline = Date.now() + this.waitMs;
    for (;;) {
      const claim = { fingerprint, claimedByServer: this.claimant.serverId, claimedByRun: this.claimant.run };
      if (await claimKey(this.db, { ...stored, ...claim })) return 'first';
      const first = await findRequest(this.db, stored);
      if (first && first.fingerprint !== fingerprint) throw new AppError('idempotency_key_reused');
      if (first && first.status !== null && first.body !== null) {
        return { status: first.status, contentType: first.contentType, body: openAnswer(first.body, call.key) };
      }
      // Still being handled, or interrupted (the server stopped mid-way): its outcome is unknown here.
      // Cut short by this instance's earlier run, no answer will come: say so at once, not after the wait.
      if (Date.now() > deadline || (first && this.interruptedHere(first))) throw new AppError('request_in_progress');
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /** Claimed by an earlier run of this instance: that process is gone, and the request with it. */
  private interruptedHere(stored: { claimedByServer: string | null; claimedByRun: string | null }): boolean {
    return (
      stored.claimedByServer === this.claimant.serverId &&
      stored.claimedByRun !== null &&
      stored.claimedByRun !== this.claimant.run
    );
  }

  /** Saves the first request's answer for the repeats, sealed under its key (sealed-answers.ts). */
  finish(call: Pick<IdempotentCall, 'userId' | 'key'>, answer: StoredAnswer): Promise<void> {
    return saveAnswer(
      this.db,
      { userId: call.userId, key: hashToken(call.key) },
      { ...answer, body: sealAnswer(answer.body, call.key) },
    );
  }

  prune(now = Date.now()): Promise<void> {
    return deleteRequestsBefore(this.db, new Date(now - KEPT_FOR_MS));
  }
}
