import os from 'node:os';
import { hash, verify } from '@node-rs/argon2';
import { AppError } from '../../errors';

/**
 * argon2id with the OWASP parameters (19 MiB, 2 passes, 1 lane). Hashing is deliberately
 * expensive, so at most one hash per core runs at once and a bounded queue waits behind them:
 * a flood of logins slows down logins instead of starving every other request.
 */
const OWASP_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export class PasswordHasher {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly maxConcurrent = Math.max(1, os.availableParallelism() - 1),
    private readonly maxWaiting = 200,
  ) {}

  hash(password: string): Promise<string> {
    return this.whenFree(() => hash(password, OWASP_OPTIONS));
  }

  /** False for a wrong password and for a stored value that is not a valid hash. */
  verify(storedHash: string, password: string): Promise<boolean> {
    return this.whenFree(() => verify(storedHash, password).catch(() => false));
  }

  private async whenFree<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.maxConcurrent) {
      if (this.waiting.length >= this.maxWaiting)
        throw new AppError('rate_limited', { headers: { 'retry-after': '5' } });
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.running += 1;
    try {
      return await work();
    } finally {
      this.running -= 1;
      this.waiting.shift()?.();
    }
  }
}
