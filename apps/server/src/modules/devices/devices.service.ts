import type { BrokerAccountsStatus, Device, DeviceSecretResponse } from '@pivot/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import { type BrokerAccounts, ForeignBrokerAccountError } from '../../gateway/broker-accounts';
import type { BrokerPolicy, DeviceDirectory } from '../../gateway/broker-policy';
import type { MqttGateway } from '../../gateway/mqtt-gateway';
import type { HealthProblem } from '../../http/health';
import type { ClientInfo, SignedInUser } from '../../http/request-context';
import { hashToken, randomToken, sameSecret } from '../../secrets';
import { RepeatingJob } from '../../time/repeating-job';
import type { LogsService } from '../logs';
import type { AccountsCheck, BrokerAccountRestoration, RestorationProgress } from './broker-account-restoration';
import type { SecretBox } from '../../secret-box';
import {
  type StoredSecret,
  deleteDevice,
  findDevice,
  insertDevice,
  listDeviceRows,
  listMachineIds,
  markConnected,
  markRefused,
  replaceSecret,
  resealSecret,
} from './devices.repository';
import type { DeviceRow } from './devices.table';

export type DevicesDeps = {
  db: Database;
  logs: LogsService;
  policy: BrokerPolicy;
  /** Tells the other server instances of a change, and this one of theirs. */
  gateway: Pick<MqttGateway, 'watchControllers' | 'announceControllersChanged' | 'reportOffline'>;
  /** Mosquitto's dynamic security, where the broker keeps the accounts itself. */
  accounts: BrokerAccounts | undefined;
  /** Compares the broker's accounts with the registered controllers and restores the missing; with `accounts`. */
  restoration: BrokerAccountRestoration | undefined;
  /** Drops a live connection: the embedded broker's way, or EMQX's API. */
  disconnect: ((machineId: string) => Promise<void>) | undefined;
  secretBox: SecretBox;
  logger: FastifyBaseLogger;
};

/**
 * Instances tell each other of every change at once (through the broker); this re-reading is
 * for a message lost on the way, such as one sent while the broker was down.
 */
const REFRESH_MS = 60_000;
/** A refused connection is written to the controller's row at most this often, and to the activity log less often still. */
const REFUSAL_MARK_MS = 60_000;
const REFUSAL_LOG_MS = 10 * 60_000;
/** How often the broker's accounts are compared with the registered controllers (docs/operations.md). */
export const ACCOUNTS_CHECK_MS = 30_000;

/**
 * Machine controllers' credentials: registered by an administrator (the secret is shown once),
 * replaced, removed; checked when a controller connects to the embedded broker or to EMQX,
 * and pushed to Mosquitto's dynamic security where that keeps them.
 */
export class DevicesService implements DeviceDirectory {
  private registered = new Set<string>();
  private readonly refusals = new Map<string, { markedAt: number; loggedAt: number }>();
  /** The controllers read again every REFRESH_MS, for a change whose message was lost. */
  private readonly periodicRefresh: RepeatingJob;
  /** The read of the registered controllers under way, and whether another is due after it. */
  private refreshing: Promise<void> | undefined;
  private refreshAgain = false;
  /**
   * Controllers this instance registered (true) or removed (false) while a read was under way: the
   * read may have begun before their change was committed, and must not undo it.
   */
  private readonly changedDuringRead = new Map<string, boolean>();
  /** The broker's accounts compared with the registered controllers, at start and every ACCOUNTS_CHECK_MS. */
  private readonly accountsCheck: RepeatingJob;
  private lastCheck: AccountsCheck | undefined;
  /** Whether the last run found another process at it, and so did nothing. */
  private lastRunBusy = false;
  /** Comparisons asked for and not finished yet, the one under way included. */
  private checksAskedFor = 0;
  private lastCheckFailure: string | undefined;
  /** The controllers the activity log was last told could not be restored, so it is told once per change. */
  private loggedUnrestorable = '';

  constructor(private readonly deps: DevicesDeps) {
    this.accountsCheck = new RepeatingJob(() => this.checkAccounts(), {
      everyMs: ACCOUNTS_CHECK_MS,
      onError: (error) =>
        deps.logger.warn({ err: error }, "comparing the broker's accounts with the controllers failed"),
    });
    this.periodicRefresh = new RepeatingJob(() => this.refresh(), {
      everyMs: REFRESH_MS,
      onError: (error) => deps.logger.warn({ err: error }, 'reading the registered controllers failed'),
    });
  }

  /**
   * Reads the registered IDs, again when any instance changes them, and every minute besides; and
   * starts comparing the broker's accounts with them, without waiting: restoring a fleet's
   * accounts takes minutes.
   */
  async start(): Promise<void> {
    await this.refresh();
    if (this.deps.restoration) {
      void this.askForCheck().catch(() => undefined);
      this.accountsCheck.start();
      // A broker back from a restart may have come back without its accounts file.
      this.deps.accounts?.onReconnected(() => void this.askForCheck().catch(() => undefined));
    }
    this.deps.gateway.watchControllers(() => {
      this.refresh().catch((error: unknown) =>
        this.deps.logger.warn({ err: error }, 'reading the registered controllers failed'),
      );
    });
    this.periodicRefresh.start();
  }

  async stop(): Promise<void> {
    await this.periodicRefresh.stop();
    await this.accountsCheck.stop();
  }

  admits(machineId: string): boolean {
    return this.registered.has(machineId);
  }

  async verify(machineId: string, secret: string): Promise<'accepted' | 'refused' | 'unknown'> {
    const device = await findDevice(this.deps.db, machineId);
    if (!device) return 'unknown';
    const secretHash = hashToken(secret);
    if (!sameSecret(secretHash, device.secretHash)) return 'refused';
    // Registered before secrets were sealed, or sealed under a key no longer set (a backup restored
    // into another data folder): its login gives the server its secret to seal again.
    const { secretSealed } = device;
    if (secretSealed === null || this.deps.secretBox.open(machineId, secretSealed) === undefined) {
      const stored = this.stored(machineId, secret);
      this.background(resealSecret(this.deps.db, machineId, stored, secretSealed), 'sealing a secret');
    }
    return 'accepted';
  }

  connected(machineId: string, address: string): void {
    this.background(markConnected(this.deps.db, machineId, address, new Date()), 'recording a connection');
  }

  /** Someone tried a registered ID with a wrong secret: noted, but an attacker cannot flood the database or the log. */
  refused(machineId: string, address: string): void {
    const now = Date.now();
    const seen = this.refusals.get(machineId) ?? { markedAt: 0, loggedAt: 0 };
    this.refusals.set(machineId, seen);
    if (now - seen.markedAt >= REFUSAL_MARK_MS) {
      seen.markedAt = now;
      this.background(markRefused(this.deps.db, machineId, new Date(now)), 'recording a refused connection');
    }
    if (now - seen.loggedAt >= REFUSAL_LOG_MS) {
      seen.loggedAt = now;
      const entry = {
        eventType: 'device_connection_refused' as const,
        actorUserId: null,
        sprinkler: { id: null, name: null, internalId: machineId },
        event: address,
        ip: address,
      };
      this.background(this.deps.logs.record(this.deps.db, entry), 'logging a refused connection');
    }
  }

  async list(): Promise<Device[]> {
    const rows = await listDeviceRows(this.deps.db);
    const onBroker = await this.accountsOnBroker();
    return rows.map((row) => presentDevice(row, onBroker?.has(row.machineId) ?? true));
  }

  /**
   * A new controller: its secret is made here and returned this once. An account of its name on
   * the broker that the server did not make is refused unless `adoptBrokerAccount` says to take it over.
   */
  async register(
    actor: SignedInUser,
    machineId: string,
    client: ClientInfo,
    { adoptBrokerAccount = false }: { adoptBrokerAccount?: boolean } = {},
  ): Promise<DeviceSecretResponse> {
    if (this.deps.policy.isReserved(machineId)) throw new AppError('device_id_reserved');
    const secret = randomToken();
    const device = await this.deps.db.transaction(async (tx) => {
      const row = await insertDevice(tx, machineId, this.stored(machineId, secret));
      if (!row) throw new AppError('device_exists');
      await this.deps.logs.record(tx, this.entry('device_secret_created', actor, machineId, client));
      await this.onBroker((accounts) => accounts.setDevice(machineId, secret, adoptBrokerAccount ? 'adopt' : 'refuse'));
      return row;
    });
    this.noteChange(machineId, true);
    this.deps.gateway.announceControllersChanged();
    return { device: presentDevice(device, true), secret };
  }

  /** A new secret: the old one stops working and the controller is disconnected until it has the new one. */
  async replaceSecret(actor: SignedInUser, machineId: string, client: ClientInfo): Promise<DeviceSecretResponse> {
    const secret = randomToken();
    const device = await this.deps.db.transaction(async (tx) => {
      const row = await replaceSecret(tx, machineId, this.stored(machineId, secret));
      if (!row) throw new AppError('device_not_found');
      await this.deps.logs.record(tx, this.entry('device_secret_replaced', actor, machineId, client));
      // A registered controller's account is the server's, whatever became of it on the broker.
      await this.onBroker((accounts) => accounts.setDevice(machineId, secret, 'adopt'));
      return row;
    });
    await this.dropConnection(machineId);
    return { device: presentDevice(device, true), secret };
  }

  /** The controller can no longer connect; reports under its ID are dropped from now on. */
  async remove(actor: SignedInUser, machineId: string, client: ClientInfo): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const row = await deleteDevice(tx, machineId);
      if (!row) throw new AppError('device_not_found');
      await this.deps.logs.record(tx, this.entry('device_removed', actor, machineId, client));
      await this.onBroker((accounts) => accounts.removeDevice(machineId));
    });
    this.noteChange(machineId, false);
    this.refusals.delete(machineId);
    this.deps.gateway.announceControllersChanged();
    await this.dropConnection(machineId);
  }

  /**
   * The controller's connection is dropped (by Mosquitto with the change; here on the embedded
   * broker or through EMQX's API) and it is shown offline: a kicked client leaves no last will.
   */
  private async dropConnection(machineId: string): Promise<void> {
    const { accounts, disconnect, gateway } = this.deps;
    await disconnect?.(machineId);
    if (accounts || disconnect) gateway.reportOffline(machineId);
  }

  /**
   * Compares the broker's accounts with the registered controllers now (after a check under way)
   * and gives back what the broker lost; its figures, or 'busy' when another process was at it.
   */
  async restoreAccounts(): Promise<AccountsCheck | 'busy' | undefined> {
    await this.askForCheck();
    return this.lastRunBusy ? 'busy' : this.lastCheck;
  }

  /** The administrator's button: a comparison is started, and its status answered at once; it is watched through `accountsStatus`. */
  startRestoringAccounts(): BrokerAccountsStatus {
    if (this.deps.restoration) void this.askForCheck().catch(() => undefined);
    return this.accountsStatus();
  }

  accountsStatus(): BrokerAccountsStatus {
    const check = this.lastCheck;
    return {
      managed: this.deps.restoration !== undefined,
      running: this.checksAskedFor > 0,
      progress: this.restorationProgress() ?? null,
      lastCheck: check
        ? { at: check.at, missing: check.missing, restored: check.restored, unrestorable: check.unrestorable.length }
        : null,
    };
  }

  /** How far a restoration under way in this process has come. */
  restorationProgress(): RestorationProgress | undefined {
    return this.deps.restoration?.progress();
  }

  private async askForCheck(): Promise<void> {
    this.checksAskedFor += 1;
    try {
      await this.accountsCheck.runNow();
    } finally {
      this.checksAskedFor -= 1;
    }
  }

  /** What /api/health says of the broker's accounts. */
  accountProblems(): HealthProblem[] {
    const progress = this.restorationProgress();
    if (progress) {
      return [
        {
          code: 'broker_accounts_missing',
          message: `the broker lost controllers' accounts: ${progress.done} of ${progress.total} made again so far`,
        },
      ];
    }
    if (this.lastCheckFailure !== undefined) {
      return [
        {
          code: 'broker_accounts_unchecked',
          message: `the broker's accounts cannot be compared with the controllers (is the server's own broker account refused?): ${this.lastCheckFailure}`,
        },
      ];
    }
    const unrestorable = this.lastCheck?.unrestorable.length ?? 0;
    if (unrestorable === 0) return [];
    return [
      {
        code: 'broker_accounts_missing',
        message: `${unrestorable} controllers have no account on the broker and the server cannot give theirs back: give each a new secret (Admin → Machines → Controllers)`,
      },
    ];
  }

  private async checkAccounts(): Promise<void> {
    const { restoration } = this.deps;
    if (!restoration) return;
    try {
      const check = await restoration.run();
      this.lastCheckFailure = undefined;
      this.lastRunBusy = check === 'busy';
      if (check === 'busy') return;
      this.lastCheck = check;
      await this.tellAdministrators(check);
    } catch (error) {
      this.lastCheckFailure = error instanceof Error ? error.message : String(error);
      throw error;
    }
  }

  /** An entry in the activity log when accounts were made again, or when the ones that cannot be change. */
  private async tellAdministrators(check: AccountsCheck): Promise<void> {
    const unrestorable = check.unrestorable.join(',');
    if (check.restored === 0 && unrestorable === this.loggedUnrestorable) return;
    this.loggedUnrestorable = unrestorable;
    if (check.missing === 0) return;
    await this.deps.logs.record(this.deps.db, {
      eventType: 'broker_accounts_lost',
      actorUserId: null,
      event: String(check.missing),
      details: String(check.restored),
      ip: '',
    });
  }

  /**
   * Reads the registered controllers again. Asked for while a read goes on, it reads once more
   * after it, however many times it was asked: registering thousands of controllers in a row
   * (each change announced to every instance) costs a read per read's time, not a read of every
   * controller per controller. A read is never overtaken by an older one.
   */
  private refresh(): Promise<void> {
    this.refreshAgain = true;
    this.refreshing ??= (async () => {
      try {
        while (this.refreshAgain) {
          this.refreshAgain = false;
          this.changedDuringRead.clear();
          const read = new Set(await listMachineIds(this.deps.db));
          for (const [machineId, present] of this.changedDuringRead) {
            if (present) read.add(machineId);
            else read.delete(machineId);
          }
          this.registered = read;
        }
      } finally {
        this.refreshing = undefined;
        this.changedDuringRead.clear();
      }
    })();
    return this.refreshing;
  }

  private noteChange(machineId: string, present: boolean): void {
    if (present) this.registered.add(machineId);
    else this.registered.delete(machineId);
    if (this.refreshing) this.changedDuringRead.set(machineId, present);
  }

  /**
   * A change to the broker's accounts is made inside the transaction of the change it follows:
   * if the broker cannot be reached, nothing changes, and the administrator is told so.
   */
  private async onBroker(change: (accounts: BrokerAccounts) => Promise<void>): Promise<void> {
    const { accounts } = this.deps;
    if (!accounts) return;
    try {
      await change(accounts);
    } catch (error) {
      if (error instanceof ForeignBrokerAccountError) throw new AppError('device_account_foreign');
      this.deps.logger.error({ err: error }, "changing a controller's account on the broker failed");
      throw new AppError('broker_unreachable');
    }
  }

  private async accountsOnBroker(): Promise<Set<string> | undefined> {
    if (!this.deps.accounts) return undefined;
    try {
      return new Set(await this.deps.accounts.listDevices());
    } catch (error) {
      this.deps.logger.warn({ err: error }, "reading the broker's accounts failed");
      return undefined;
    }
  }

  private stored(machineId: string, secret: string): StoredSecret {
    return { secretHash: hashToken(secret), secretSealed: this.deps.secretBox.seal(machineId, secret) };
  }

  private entry(
    eventType: 'device_secret_created' | 'device_secret_replaced' | 'device_removed',
    actor: SignedInUser,
    machineId: string,
    client: ClientInfo,
  ) {
    return {
      eventType,
      actorUserId: actor.id,
      sprinkler: { id: null, name: null, internalId: machineId },
      event: actor.email,
      ip: client.ip,
    };
  }

  private background(work: Promise<unknown>, what: string): void {
    work.catch((error: unknown) => this.deps.logger.warn({ err: error }, `${what} failed`));
  }
}

function presentDevice(row: DeviceRow, onBroker: boolean): Device {
  return {
    machineId: row.machineId,
    createdAt: row.createdAt.getTime(),
    secretCreatedAt: row.secretCreatedAt.getTime(),
    lastConnectedAt: row.lastConnectedAt?.getTime() ?? null,
    lastAddress: row.lastAddress,
    lastRefusedAt: row.lastRefusedAt?.getTime() ?? null,
    onBroker,
  };
}
