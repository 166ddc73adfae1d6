import type { LogEntry } from '@pivot/contracts';
import type { LogViewer } from './logs.repository';
import type { LogEntryRow } from './logs.table';

export function presentLogEntry(row: LogEntryRow, viewer: LogViewer): LogEntry {
  return {
    id: row.id,
    timestamp: row.createdAt.getTime(),
    event: row.event,
    ip: row.ip,
    details: row.details,
    eventType: row.eventType,
    sprinklerName: row.sprinklerName,
    sprinklerInternalId: row.sprinklerInternalId,
    unread: viewer.logsReadAt === null || row.createdAt > viewer.logsReadAt,
  };
}
