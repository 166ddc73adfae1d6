import type { FastifyBaseLogger } from 'fastify';
import type { Database, DatabaseHandle } from '../../db/client';
import { oneProcessAtATime } from '../../db/one-process-at-a-time';
import type { BrokerAccounts, DeviceAccount } from '../../gateway/broker-accounts';
import type { SecretBox } from '../../secret-box';
import { listDeviceRows } from './devices.repository';

/** Any number unique to this application: the instances and the command take turns restoring accounts. */
const ACCOUNTS_LOCK_KEY = 7_311_020_39;

/** What one comparison of the broker's accounts with the registered controllers found and did. */
export type AccountsCheck = {
  /** When it ended, ms since the epoch. */
  at: number;
  /** Registered controllers whose account the broker lacked. */
  missing: number;
  /** Of those, the accounts made again with the controller's own secret. */
  restored: number;
  /** Of those, the ones the server cannot give back: no sealed secret, or one sealed under another key. */
  unrestorable: string[];
  /** Accounts of controllers not registered (seen so twice in a row), removed. */
  orphansRemoved: number;
};

/** How far a restoration under way has come: accounts made or found, of those it set out to make. */
export type RestorationProgress = { done: number; total: number };

/**
 * The server's database is the source of truth for the broker's accounts
 * (docs/decisions/0007-device-secrets-sealed.md): this compares the accounts the broker holds with
 * the registered controllers, makes again each one it lacks from the controller's sealed secret,
 * and removes accounts nobody registered. One process at a time does it (an advisory lock on
 * PostgreSQL), so the instances, the button and `npm run broker:reprovision` may all ask at once.
 */
export class BrokerAccountRestoration {
  /** Accounts with no registered controller at the last look: removed if still so at the next. */
  private suspectedOrphans = new Set<string>();
  private current: RestorationProgress | undefined;

  constructor(
    private readonly deps: {
      db: Database;
      databaseKind: DatabaseHandle['kind'];
      accounts: BrokerAccounts;
      box: SecretBox;
      logger: FastifyBaseLogger;
    },
  ) {}

  /** The restoration under way in this process, if any. */
  progress(): RestorationProgress | undefined {
    return this.current && { ...this.current };
  }

  /** The check's figures, or 'busy' when another process is at it now. */
  async run(): Promise<AccountsCheck | 'busy'> {
    const { db, databaseKind } = this.deps;
    return oneProcessAtATime({ db, kind: databaseKind }, ACCOUNTS_LOCK_KEY, () => this.compareAndRestore());
  }

  private async compareAndRestore(): Promise<AccountsCheck> {
    const { db, accounts, box, logger } = this.deps;
    // The broker first, then the table: an account a registration makes before its transaction
    // commits is only suspected here, and a removal's account is gone before its row is.
    const onBroker = new Set(await accounts.listDevices());
    const rows = await listDeviceRows(db);
    const registered = new Set(rows.map((row) => row.machineId));

    const orphans = [...onBroker].filter((machineId) => !registered.has(machineId));
    const confirmedOrphans = orphans.filter((machineId) => this.suspectedOrphans.has(machineId));
    this.suspectedOrphans = new Set(orphans.filter((machineId) => !this.suspectedOrphans.has(machineId)));
    for (const machineId of confirmedOrphans) await accounts.removeDevice(machineId);
    if (confirmedOrphans.length > 0) {
      logger.info({ orphans: confirmedOrphans }, 'removed broker accounts of controllers not registered');
    }

    const missing = rows.filter((row) => !onBroker.has(row.machineId));
    const restorable: DeviceAccount[] = [];
    const unrestorable: string[] = [];
    for (const row of missing) {
      const secret = row.secretSealed === null ? undefined : box.open(row.machineId, row.secretSealed);
      if (secret === undefined) unrestorable.push(row.machineId);
      else restorable.push({ machineId: row.machineId, secret });
    }
    let restored = 0;
    if (restorable.length > 0) {
      logger.warn(
        { missing: missing.length, restorable: restorable.length },
        "the broker lacks registered controllers' accounts: making them again",
      );
      this.current = { done: 0, total: restorable.length };
      try {
        await accounts.restoreDevices(restorable, (_machineId, created) => {
          this.current!.done += 1;
          if (created) restored += 1;
        });
      } finally {
        this.current = undefined;
      }
    }
    if (unrestorable.length > 0) {
      logger.error(
        { unrestorable: unrestorable.length },
        "the broker lacks registered controllers' accounts whose secrets the server cannot give back: each needs a new secret",
      );
    }
    return { at: Date.now(), missing: missing.length, restored, unrestorable, orphansRemoved: confirmedOrphans.length };
  }
}
