import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import {
  clearThrottleEvents,
  countThrottleEvents,
  deleteThrottleEventsBefore,
  recordThrottleEvent,
} from './auth.repository';

export type ThrottleRule = { kind: string; max: number; windowMs: number };

/**
 * Counts attempts per key in PostgreSQL, so the limits hold across every server instance:
 * failed logins per account and per address, reset mails per account and per address.
 */
export class Throttle {
  constructor(private readonly db: Database) {}

  async isExceeded(rule: ThrottleRule, key: string): Promise<boolean> {
    const since = new Date(Date.now() - rule.windowMs);
    return (await countThrottleEvents(this.db, rule.kind, key, since)) >= rule.max;
  }

  /** Throws rate_limited, with the window as Retry-After, when the key has used up its attempts. */
  async assertAllowed(rule: ThrottleRule, key: string): Promise<void> {
    if (await this.isExceeded(rule, key)) {
      throw new AppError('rate_limited', { headers: { 'retry-after': String(Math.ceil(rule.windowMs / 1000)) } });
    }
  }

  record(rule: ThrottleRule, key: string): Promise<void> {
    return recordThrottleEvent(this.db, rule.kind, key);
  }

  clear(rule: ThrottleRule, key: string): Promise<void> {
    return clearThrottleEvents(this.db, rule.kind, key);
  }

  /** Drops attempts older than the longest window; run now and then. */
  prune(longestWindowMs: number): Promise<void> {
    return deleteThrottleEventsBefore(this.db, new Date(Date.now() - longestWindowMs));
  }
}

const FIFTEEN_MINUTES = 15 * 60 * 1000;
const ONE_HOUR = 60 * 60 * 1000;

export const THROTTLE_RULES = {
  loginPerAccount: { kind: 'login_account', max: 10, windowMs: FIFTEEN_MINUTES },
  loginPerAddress: { kind: 'login_address', max: 50, windowMs: FIFTEEN_MINUTES },
  resetPerAccount: { kind: 'reset_account', max: 3, windowMs: ONE_HOUR },
  resetPerAddress: { kind: 'reset_address', max: 20, windowMs: ONE_HOUR },
} as const satisfies Record<string, ThrottleRule>;

export const LONGEST_THROTTLE_WINDOW_MS = ONE_HOUR;
