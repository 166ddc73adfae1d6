import { parseArgs } from 'node:util';

export type BenchOptions = {
  /** A broker to use instead of the server's embedded aedes, such as mqtt://127.0.0.1:1883. */
  broker: string | undefined;
  /** A PostgreSQL server to use instead of the embedded PGlite; the benchmark works in a scratch database of its own. */
  database: string | undefined;
};

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Benchmarks measure this machine alone: a remote broker or database would measure the network. */
function assertLoopback(name: string, url: string | undefined): void {
  if (url !== undefined && !LOOPBACK_HOSTS.has(new URL(url).hostname)) {
    throw new Error(`--${name} must be on a loopback address, not ${url}`);
  }
}

/**
 * Reads `--broker`, `--database` and the benchmark's own numeric settings (`--name value`),
 * each of which defaults to the given value.
 */
export function readOptions<T extends Record<string, number>>(
  defaults: T,
  /** Settings that may also be 0 (none, off). */
  zeroAllowed: readonly (keyof T)[] = [],
): BenchOptions & T {
  const numeric = Object.fromEntries(Object.keys(defaults).map((name) => [name, { type: 'string' as const }]));
  const { values } = parseArgs({
    options: { broker: { type: 'string' }, database: { type: 'string' }, ...numeric },
    strict: true,
  });
  const given: Record<string, unknown> = values;
  const settings: Record<string, number> = { ...defaults };
  for (const name of Object.keys(defaults)) {
    const text = given[name];
    if (typeof text !== 'string') continue;
    const value = Number(text);
    const allowed = Number.isFinite(value) && (value > 0 || (value === 0 && zeroAllowed.includes(name)));
    if (!allowed) throw new Error(`--${name} must be a positive number, not ${text}`);
    settings[name] = value;
  }
  const broker = typeof values.broker === 'string' ? values.broker : undefined;
  const database = typeof values.database === 'string' ? values.database : undefined;
  assertLoopback('broker', broker);
  assertLoopback('database', database);
  return { ...(settings as T), broker, database };
}
