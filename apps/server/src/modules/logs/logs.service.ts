import type { LogListResponse, LogQuery } from '@pivot/contracts';
import type { Database } from '../../db/client';
import { presentLogEntry } from './logs.presenter';
import { type LogViewer, listLogEntries, markLogsRead } from './logs.repository';

export class LogsService {
  constructor(private readonly db: Database) {}

  async list(viewer: LogViewer, query: LogQuery): Promise<LogListResponse> {
    const { count, rows } = await listLogEntries(this.db, viewer, {
      onlyUnread: query.type === 'unread',
      limit: query.pageSize,
      offset: (query.page - 1) * query.pageSize,
    });
    return { count, data: rows.map((row) => presentLogEntry(row, viewer)) };
  }

  /** Everything logged up to now counts as read for this user. */
  markAllRead(viewer: LogViewer): Promise<void> {
    return markLogsRead(this.db, viewer.id);
  }
}
