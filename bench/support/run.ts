/** What to undo if the benchmark has to be cut short: scratch databases, temporary folders. */
const cleanups = new Set<() => Promise<void>>();
const CLEANUP_LIMIT_MS = 20_000;

/** Registers work to undo should the benchmark overrun; returns the function that unregisters it. */
export function onAbort(cleanup: () => Promise<void>): () => void {
  cleanups.add(cleanup);
  return () => cleanups.delete(cleanup);
}

/** The error with its causes: fetch's "fetch failed" says why only in its cause. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const text = error.stack ?? error.message;
  return error.cause === undefined ? text : `${text}\ncaused by: ${describe(error.cause)}`;
}

/**
 * Runs a benchmark with a time limit: it exits 0 once its figures are printed, whether or not
 * they meet their targets, and 1 only when the benchmark itself breaks or overruns.
 */
export function runBenchmark(name: string, timeLimitMs: number, main: () => Promise<void>): void {
  const watchdog = setTimeout(() => {
    process.stderr.write(`${name}: did not finish within ${timeLimitMs / 1000} s\n`);
    // Dropping a scratch database cuts the connections still using it: the process is ending anyway.
    process.on('uncaughtException', () => undefined);
    const undone = Promise.allSettled([...cleanups].map((cleanup) => cleanup()));
    const limit = new Promise((resolve) => setTimeout(resolve, CLEANUP_LIMIT_MS));
    void Promise.race([undone, limit]).then(() => process.exit(1));
  }, timeLimitMs);
  main().then(
    () => {
      clearTimeout(watchdog);
      // Keep-alive sockets and broker clients closing in the background must not hold the process.
      process.exit(0);
    },
    (error: unknown) => {
      process.stderr.write(`${name} failed: ${describe(error)}\n`);
      process.exit(1);
    },
  );
}
