import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import {
  clearThrottleEvents,
  countThrottleEvents,
  deleteThrottleEventsBefore,
  recordThrottleEvent,
  summarizeThrottleEvents,
} from './auth.repository';

/** A fixed budget: at most `max` attempts per key within the window. */
export type ThrottleRule = { kind: string; max: number; windowMs: number };

/**
 * Growing waits: the first `free` failures within the window cost nothing; after that each try
 * must wait `firstDelayMs` after the last failure, doubled with every further failure up to
 * `maxDelayMs`. A wait is never a lockout: once it has passed, the right password works.
 */
export type BackoffRule = { kind: string; free: number; firstDelayMs: number; maxDelayMs: number; windowMs: number };

/** The wait a key owes after `failures` failures, counted from the last one. */
export function backoffDelayMs(rule: BackoffRule, failures: number): number {
  if (failures < rule.free) return 0;
  return Math.min(rule.firstDelayMs * 2 ** (failures - rule.free), rule.maxDelayMs);
}

/**
 * Counts attempts per key in PostgreSQL, so the limits hold across every server instance:
 * failed logins and password checks (docs/operations.md, "Sign-in throttling"), reset mails.
 */
export class Throttle {
  constructor(private readonly db: Database) {}

  async isExceeded(rule: ThrottleRule, key: string): Promise<boolean> {
    const since = new Date(Date.now() - rule.windowMs);
    return (await countThrottleEvents(this.db, rule.kind, key, since)) >= rule.max;
  }

  /** Throws rate_limited, with the window as Retry-After, when the key has used up its attempts. */
  async assertAllowed(rule: ThrottleRule, key: string): Promise<void> {
    if (await this.isExceeded(rule, key)) throw rateLimited(rule.windowMs);
  }

  /** How long the key still has to wait, and how many failures it has within the window. */
  async backoff(rule: BackoffRule, key: string): Promise<{ failures: number; waitMs: number }> {
    const { failures, sinceLastMs } = await summarizeThrottleEvents(this.db, rule.kind, key, rule.windowMs);
    return { failures, waitMs: Math.max(0, backoffDelayMs(rule, failures) - sinceLastMs) };
  }

  /** Throws rate_limited, with the longest wait as Retry-After, while any of the waits lasts. */
  assertWaited(...waitsMs: number[]): void {
    const waitMs = Math.max(0, ...waitsMs);
    if (waitMs > 0) throw rateLimited(waitMs);
  }

  record(rule: ThrottleRule | BackoffRule, key: string): Promise<void> {
    return recordThrottleEvent(this.db, rule.kind, key);
  }

  clear(rule: ThrottleRule | BackoffRule, key: string): Promise<void> {
    return clearThrottleEvents(this.db, rule.kind, key);
  }

  /** Drops attempts older than the longest window; run now and then. */
  prune(longestWindowMs: number): Promise<void> {
    return deleteThrottleEventsBefore(this.db, new Date(Date.now() - longestWindowMs));
  }
}

function rateLimited(waitMs: number): AppError {
  return new AppError('rate_limited', { headers: { 'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))) } });
}

const ONE_HOUR = 60 * 60 * 1000;
const ONE_DAY = 24 * ONE_HOUR;
const SECOND = 1000;
const FIVE_MINUTES = 5 * 60 * 1000;

export const THROTTLE_RULES = {
  resetPerAccount: { kind: 'reset_account', max: 3, windowMs: ONE_HOUR },
  resetPerAddress: { kind: 'reset_address', max: 20, windowMs: ONE_HOUR },
} as const satisfies Record<string, ThrottleRule>;

/**
 * Failures are remembered for a day, longer than the longest wait, so a guesser at the cap cannot
 * wait for old failures to expire and get free tries again.
 */
export const BACKOFF_RULES = {
  /** One account from one address: the guesser, or the user who mistypes. */
  loginPerPair: { kind: 'login_pair', free: 5, firstDelayMs: SECOND, maxDelayMs: FIVE_MINUTES, windowMs: ONE_DAY },
  /** One account from every address, but applied only to addresses that have failed for it themselves. */
  loginPerAccount: {
    kind: 'login_account',
    free: 20,
    firstDelayMs: SECOND,
    maxDelayMs: FIVE_MINUTES,
    windowMs: ONE_DAY,
  },
  /** One address for every account: high, as a farm office shares one address behind NAT. */
  loginPerAddress: {
    kind: 'login_address',
    free: 100,
    firstDelayMs: SECOND,
    maxDelayMs: 60 * SECOND,
    windowMs: ONE_HOUR,
  },
  /** Wrong codes at the second step of signing in, per account, across its challenges (docs/two-factor.md). */
  secondFactorPerAccount: {
    kind: 'second_factor_account',
    free: 5,
    firstDelayMs: SECOND,
    maxDelayMs: FIVE_MINUTES,
    windowMs: ONE_DAY,
  },
  /** Checks of the current password by a signed-in session: changing the password or the email. */
  currentPassword: {
    kind: 'current_password',
    free: 5,
    firstDelayMs: SECOND,
    maxDelayMs: FIVE_MINUTES,
    windowMs: ONE_DAY,
  },
} as const satisfies Record<string, BackoffRule>;

export const LONGEST_THROTTLE_WINDOW_MS = ONE_DAY;
