import os from 'node:os';
import { hash, verify } from '@node-rs/argon2';
import { BoundedWork } from '../../http/bounded-work';

/**
 * argon2id with the OWASP parameters (19 MiB, 2 passes, 1 lane). Hashing is deliberately
 * expensive, so at most one hash per core runs at once and a bounded queue waits behind them:
 * a flood of logins slows down logins instead of starving every other request.
 */
const OWASP_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export class PasswordHasher {
  private readonly work: BoundedWork;

  constructor(maxConcurrent = Math.max(1, os.availableParallelism() - 1), maxWaiting = 200) {
    this.work = new BoundedWork(maxConcurrent, maxWaiting);
  }

  hash(password: string): Promise<string> {
    return this.work.run(() => hash(password, OWASP_OPTIONS));
  }

  /** False for a wrong password and for a stored value that is not a valid hash. */
  verify(storedHash: string, password: string): Promise<boolean> {
    return this.work.run(() => verify(storedHash, password).catch(() => false));
  }
}
