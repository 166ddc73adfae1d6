import type { Language, LogEventType, LogListResponse, LogQuery } from '@pivot/contracts';
import type { Database, Queryable } from '../../db/client';
import type { AccessService } from '../access';
import { presentLogEntry } from './logs.presenter';
import {
  type NewLogEntry,
  type OwnEntries,
  findEntriesByIds,
  findEntriesReadOneByOne,
  findLatestEntryId,
  findNewestEntryAfter,
  findReadAt,
  insertLogEntries,
  insertLogEntry,
  listEntriesAfter,
  listLogEntries,
  markEntriesRead,
  markLogsRead,
} from './logs.repository';
import type { LogEntryRow } from './logs.table';

export type LogViewer = { id: number; admin: boolean };

/** Who reads an entry: their language, and whether they are granted a machine the entry names besides its own. */
export type LogReader = { language: Language; seesAll: boolean; sees: (sprinklerId: number) => boolean };

/**
 * An entry's `event` as a reader reads it: for the events whose words the module that writes them
 * makes in the reader's language, naming only the machines the reader is granted (an autopilot
 * decision, docs/autopilot.md).
 */
export type EventTeller = (entry: LogEntryRow, reader: LogReader) => string;

/** The activity log: every module records its events here, and users read what concerns them. */
export class LogsService {
  private readonly tellers = new Map<LogEventType, EventTeller>();

  constructor(private readonly deps: { db: Database; access: AccessService }) {}

  /** How the entries of a type are told: their `event` read in the reader's language. */
  tellEventsWith(eventType: LogEventType, teller: EventTeller): void {
    this.tellers.set(eventType, teller);
  }

  /**
   * Records an event and returns its entry's id; pass the transaction of the change it tells
   * about, so neither exists without the other.
   */
  record(db: Queryable, entry: NewLogEntry): Promise<number> {
    return insertLogEntry(db, entry, this.dealerActingOn);
  }

  /** A dealer's member's action on a farm's machine names the dealer (docs/roles.md). */
  private readonly dealerActingOn = (userId: number, sprinklerId: number) =>
    this.deps.access.dealerActingOn(userId, sprinklerId);

  /** Records events in a few statements (record's, for many at once); their entries' ids, in order. */
  recordAll(db: Queryable, entries: NewLogEntry[]): Promise<number[]> {
    return insertLogEntries(db, entries, this.dealerActingOn);
  }

  async list(viewer: LogViewer & { language: Language }, query: LogQuery): Promise<LogListResponse> {
    const { db } = this.deps;
    const reader = { userId: viewer.id, readAt: await findReadAt(db, viewer.id) };
    if (query.farm !== undefined) await this.deps.access.switchableFarm(db, viewer, query.farm);
    const { count, rows } = await listLogEntries(db, this.visibleTo(viewer), {
      ...(query.type === 'unread' ? { unreadOf: reader } : {}),
      ...(query.farm === undefined
        ? {}
        : { ofFarm: { farmId: query.farm, machineIds: this.deps.access.machineIdsInFarm(db, query.farm) } }),
      limit: query.pageSize,
      offset: (query.page - 1) * query.pageSize,
    });
    const readOneByOne = await findEntriesReadOneByOne(
      db,
      viewer.id,
      rows.map((row) => row.id),
    );
    const told = rows.some((row) => this.tellers.has(row.eventType)) ? await this.readerOf(viewer) : undefined;
    return {
      count,
      data: rows.map((row) => {
        const entry = presentLogEntry(row, reader.readAt, readOneByOne.has(row.id));
        const teller = this.tellers.get(row.eventType);
        return teller && told ? { ...entry, event: teller(row, told) } : entry;
      }),
    };
  }

  private async readerOf(viewer: LogViewer & { language: Language }): Promise<LogReader> {
    if (viewer.admin) return { language: viewer.language, seesAll: true, sees: () => true };
    const granted = new Set((await this.deps.access.machinesOfUsers(this.deps.db, [viewer.id])).get(viewer.id));
    return { language: viewer.language, seesAll: false, sees: (sprinklerId) => granted.has(sprinklerId) };
  }

  private visibleTo(viewer: LogViewer): OwnEntries | 'all' {
    const { db, access } = this.deps;
    if (viewer.admin) return 'all';
    return {
      userId: viewer.id,
      grantedMachineIds: access.machineIdsOf(db, viewer.id),
      managedFarmIds: access.managedFarmIdsOf(db, viewer.id),
    };
  }

  /** Entries of the given types recorded after `afterId`, oldest first: what happened since a look. */
  entriesAfter(
    db: Queryable,
    afterId: number,
    eventTypes: readonly LogEventType[],
    limit: number,
  ): Promise<LogEntryRow[]> {
    return listEntriesAfter(db, afterId, eventTypes, limit);
  }

  /** The entries with these ids, oldest first. */
  entriesByIds(db: Queryable, ids: number[]): Promise<LogEntryRow[]> {
    return findEntriesByIds(db, ids);
  }

  /** The newest entry of this type written after `after`: a warning raised once per period reads it. */
  newestEntryAfter(db: Queryable, eventType: LogEventType, after: Date | undefined): Promise<LogEntryRow | undefined> {
    return findNewestEntryAfter(db, eventType, after);
  }

  latestEntryId(db: Queryable): Promise<number> {
    return findLatestEntryId(db);
  }

  /** Everything logged up to now counts as read for this user. */
  markAllRead(viewer: LogViewer): Promise<void> {
    return markLogsRead(this.deps.db, viewer.id);
  }

  /** Only these entries count as read (the ones the user was shown); ids they may not see change nothing. */
  markRead(viewer: LogViewer, ids: number[]): Promise<void> {
    return markEntriesRead(this.deps.db, viewer.id, this.visibleTo(viewer), ids);
  }
}
