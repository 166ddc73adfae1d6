import type { LogEntry } from '@pivot/contracts';
import type { LogEntryRow } from './logs.table';

/**
 * An entry as its reader sees it: unread when written after the moment they last read the whole
 * log, unless they read it on its own.
 */
export function presentLogEntry(row: LogEntryRow, readAt: Date | null, readOnItsOwn: boolean): LogEntry {
  return {
    id: row.id,
    timestamp: row.createdAt.getTime(),
    event: row.event,
    ip: row.ip,
    details: row.details,
    eventType: row.eventType,
    sprinklerName: row.sprinklerName,
    sprinklerInternalId: row.sprinklerInternalId,
    farmName: row.farmName,
    dealerName: row.dealerName,
    unread: !readOnItsOwn && (readAt === null || row.createdAt > readAt),
  };
}
