import type { LogEventType, LogListResponse, LogQuery } from '@pivot/contracts';
import type { Database, Queryable } from '../../db/client';
import type { AccessService } from '../access';
import { presentLogEntry } from './logs.presenter';
import {
  type NewLogEntry,
  findEntriesByIds,
  findLatestEntryId,
  findReadAt,
  insertLogEntry,
  listEntriesAfter,
  listLogEntries,
  markLogsRead,
} from './logs.repository';
import type { LogEntryRow } from './logs.table';

export type LogViewer = { id: number; admin: boolean };

/** The activity log: every module records its events here, and users read what concerns them. */
export class LogsService {
  constructor(private readonly deps: { db: Database; access: AccessService }) {}

  /**
   * Records an event and returns its entry's id; pass the transaction of the change it tells
   * about, so neither exists without the other.
   */
  record(db: Queryable, entry: NewLogEntry): Promise<number> {
    return insertLogEntry(db, entry);
  }

  async list(viewer: LogViewer, query: LogQuery): Promise<LogListResponse> {
    const { db, access } = this.deps;
    const readAt = await findReadAt(db, viewer.id);
    const visible = viewer.admin ? 'all' : { userId: viewer.id, grantedMachineIds: access.machineIdsOf(db, viewer.id) };
    const { count, rows } = await listLogEntries(db, visible, {
      unreadAfter: query.type === 'unread' ? readAt : undefined,
      limit: query.pageSize,
      offset: (query.page - 1) * query.pageSize,
    });
    return { count, data: rows.map((row) => presentLogEntry(row, readAt)) };
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

  latestEntryId(db: Queryable): Promise<number> {
    return findLatestEntryId(db);
  }

  /** Everything logged up to now counts as read for this user. */
  markAllRead(viewer: LogViewer): Promise<void> {
    return markLogsRead(this.deps.db, viewer.id);
  }
}
