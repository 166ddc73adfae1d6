import type { AccessLevel } from '@pivot/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import type { GuardedStream, StreamGuard } from '../../http/event-stream';
import { RepeatingJob } from '../../time/repeating-job';
import type { AccessService } from '../access';
import { findLiveSessions } from './auth.repository';

/**
 * How often each instance checks again that every stream open on it is still allowed: a revoke,
 * sign-out or deletion made through another instance ends this one's streams within this time
 * (one made through this instance at once, see `recheckSoon`), and so does a session's expiry.
 */
export const STREAMS_RECHECK_MS = 2000;

/** Live event streams (machines, list, alerts together) one user may hold open on one instance. */
export const MAX_STREAMS_PER_USER = 20;

/** What health tells of the live streams of this instance. */
export type StreamFigures = {
  open: number;
  /** What the process holds for them that their clients have not taken yet, KiB (characters, about bytes). */
  bufferedKiB: number;
  /** Closed since the start because their client stopped reading (see `eventStreams`). */
  closedStalled: number;
};

/** What the streams' check read from the database, for all the streams of the instance at once. */
export type StreamFacts = {
  /** The sessions among the streams' that are neither revoked nor expired, with their user as they are now. */
  liveSessions: Map<string, { userId: number; admin: boolean }>;
  /** The level of each machine granted to each user holding a machine stream. */
  grants: Map<number, Map<number, AccessLevel>>;
};

/**
 * Whether a stream may stay open: its session is live (not signed out, revoked or expired, its
 * user not deleted), rights it was opened with are still held (an administrator's stream ends when
 * they stop being one), and a machine stream's machine is still theirs to see, at the level it was
 * opened with. Add a check here
 * (with what it needs read into `StreamFacts`) for any other right a stream depends on.
 */
export function stillAllowed(stream: GuardedStream, facts: StreamFacts): boolean {
  const session = facts.liveSessions.get(stream.sessionId);
  if (!session || session.userId !== stream.userId) return false;
  if (stream.admin && !session.admin) return false;
  if (stream.sprinklerId === undefined || session.admin) return true;
  const level = facts.grants.get(stream.userId)?.get(stream.sprinklerId);
  return level !== undefined && (stream.level === undefined || level === stream.level);
}

/**
 * The live event streams open on this instance, each with who opened it: every few seconds, and
 * at once after a change made through this instance, their sessions and grants are read again in
 * two queries for all of them, and those no longer allowed are ended. Every instance does this
 * for its own streams, so a change made anywhere reaches every stream within `STREAMS_RECHECK_MS`.
 * It admits at most `MAX_STREAMS_PER_USER` streams of one user and `maxStreams` in all.
 */
export class OpenStreams implements StreamGuard {
  private readonly streams = new Set<GuardedStream>();
  private closedStalledCount = 0;
  private readonly job = new RepeatingJob(() => this.recheck(), {
    everyMs: STREAMS_RECHECK_MS,
    onError: (error) => this.deps.logger.warn({ err: error }, 'checking the open streams failed'),
  });

  constructor(
    private readonly deps: {
      db: Database;
      access: AccessService;
      logger: FastifyBaseLogger;
      maxStreams: number;
      writeTimeoutMs: number;
    },
  ) {}

  get writeTimeoutMs(): number {
    return this.deps.writeTimeoutMs;
  }

  start(): void {
    this.job.start();
  }

  stop(): Promise<void> {
    return this.job.stop();
  }

  admit(stream: GuardedStream): () => void {
    let held = 0;
    for (const open of this.streams) if (open.userId === stream.userId) held += 1;
    if (held >= MAX_STREAMS_PER_USER) throw new AppError('too_many_streams');
    if (this.streams.size >= this.deps.maxStreams) throw new AppError('too_many_streams_on_server');
    this.streams.add(stream);
    return () => this.streams.delete(stream);
  }

  closedStalled(stream: GuardedStream): void {
    this.closedStalledCount += 1;
    this.deps.logger.info(
      { userId: stream.userId, sprinklerId: stream.sprinklerId },
      'closed a live stream whose client stopped reading',
    );
  }

  figures(): StreamFigures {
    let buffered = 0;
    for (const stream of this.streams) buffered += stream.bufferedChars();
    return {
      open: this.streams.size,
      bufferedKiB: Math.round(buffered / 1024),
      closedStalled: this.closedStalledCount,
    };
  }

  /**
   * Checks the open streams again, soon: after a sign-out, a session or user ended, a grant
   * revoked or a user's rights changed. A failure is logged by the job.
   */
  recheckSoon(): void {
    this.job.runNow().catch(() => undefined);
  }

  /** Checks the open streams now; resolves when those no longer allowed have ended. */
  recheckNow(): Promise<void> {
    return this.job.runNow();
  }

  private async recheck(): Promise<void> {
    const streams = [...this.streams];
    if (streams.length === 0) return;
    const { db, access } = this.deps;
    const liveSessions = await findLiveSessions(db, [...new Set(streams.map((stream) => stream.sessionId))]);
    const machineUsers = new Set(
      streams.filter((stream) => stream.sprinklerId !== undefined).map((stream) => stream.userId),
    );
    const grants = machineUsers.size > 0 ? await access.levelsOfUsers(db, [...machineUsers]) : new Map();
    for (const stream of streams) {
      if (!stillAllowed(stream, { liveSessions, grants })) {
        this.streams.delete(stream);
        stream.end();
      }
    }
  }
}
