/** PostgreSQL reports a duplicate key as SQLSTATE 23505; drizzle may wrap the driver's error. */
export function isUniqueViolation(error: unknown): boolean {
  for (
    let current: unknown = error;
    current instanceof Error || isRecord(current);
    current = (current as { cause?: unknown }).cause
  ) {
    if (isRecord(current) && current.code === '23505') return true;
    if (!isRecord(current) || current.cause === undefined) return false;
  }
  return false;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
