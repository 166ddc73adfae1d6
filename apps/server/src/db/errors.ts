/** PostgreSQL reports a duplicate key as SQLSTATE 23505; drizzle may wrap the driver's error. */
export function isUniqueViolation(error: unknown): boolean {
  return causes(error).some((cause) => cause.code === '23505');
}

/**
 * How a failed write failed: `refused`, the database refused these values (a data exception, a
 * violated constraint, a row beyond a limit: SQLSTATE classes 22, 23 and 54), so the same rows
 * fail again every time; `unavailable`, the database failed for a reason of its own (a lost
 * connection, a restart, a lack of resources, a conflict with another transaction, a missing
 * table), so the same rows may go in later; `unknown`, an error without a code (a dropped
 * connection in node-postgres, a closed PGlite, a value the driver could not send), which only
 * a trivial query can tell apart.
 */
export function classifyWriteFailure(error: unknown): 'refused' | 'unavailable' | 'unknown' {
  const code = causes(error).find((cause) => typeof cause.code === 'string')?.code as string | undefined;
  if (code === undefined) return 'unknown';
  return /^(22|23|54)[0-9A-Z]{3}$/.test(code) ? 'refused' : 'unavailable';
}

/** The database's own words for a failure: the innermost cause, without the statement and parameters drizzle adds. */
export function databaseMessage(error: unknown): string {
  const innermost = causes(error).findLast((cause) => typeof cause.message === 'string');
  return typeof innermost?.message === 'string' ? innermost.message : String(error);
}

/** Drizzle wraps the driver's error in its own: the error and its causes, outermost first (a few at most). */
function causes(error: unknown): Record<string, unknown>[] {
  const chain: Record<string, unknown>[] = [];
  for (let current = error; isRecord(current) && chain.length < MAX_CAUSES; current = current.cause) {
    chain.push(current);
  }
  return chain;
}

const MAX_CAUSES = 8;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
