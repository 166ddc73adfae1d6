import type { AnyEndpoint } from '@pivot/contracts';
import type * as AnswerSchemaModule from './answer-schemas';
import { connection } from './connection';

export type AnswerSchemas = typeof AnswerSchemaModule;

let loaded: AnswerSchemas | undefined;
let fetching: Promise<AnswerSchemas> | undefined;
let afterFirstScreen: Promise<AnswerSchemas> | undefined;

/** How long a failed fetch of the schemas waits before it is tried again while the app is online, ms. */
const RETRY_ONLINE_MS = 5000;

/** The schemas of answer-schemas.ts, if they have come. */
export function answerSchemasNow(): AnswerSchemas | undefined {
  return loaded;
}

/** Resolves once the connection is back (lib/connection.ts), or after a while if it never went. */
function retryMoment(): Promise<void> {
  return new Promise((resolve) => {
    if (connection.isOnline()) {
      setTimeout(resolve, RETRY_ONLINE_MS);
      return;
    }
    const stop = connection.subscribe(() => {
      if (!connection.isOnline()) return;
      stop();
      resolve();
    });
  });
}

/**
 * The schemas at once: for an action the user asks for (a motion), which does not wait for the
 * first screen. A fetch that fails (the connection went) is tried again once the connection is
 * back, so whatever waits for them is not left waiting for good.
 */
export function fetchAnswerSchemas(): Promise<AnswerSchemas> {
  const attempt = (): Promise<AnswerSchemas> =>
    import('./answer-schemas').then(
      (module) => (loaded = module),
      () => retryMoment().then(attempt),
    );
  fetching ??= attempt();
  return fetching;
}

/**
 * The schemas of answer-schemas.ts, and zod with them: fetched once the first screen of the visit
 * has shown its data (lib/after-first-screen.ts), so that they are not part of its first paint.
 * Until then the answers and live events they read wait to be checked.
 */
export function answerSchemas(): Promise<AnswerSchemas> {
  afterFirstScreen ??= import('./after-first-screen')
    .then((module) => module.afterFirstScreen())
    .then(fetchAnswerSchemas, fetchAnswerSchemas);
  return fetching ?? afterFirstScreen;
}

/**
 * A call declared in the contracts, known here by its method and path, its declaration (with its
 * answer's schema) taken from answer-schemas.ts once that has come. TypeScript holds the method
 * and the path to the declaration's own (their types are its literals), so they cannot drift.
 */
export type LaterEndpoint<E extends AnyEndpoint> = Pick<E, 'method' | 'path'> & {
  declaration: (schemas: AnswerSchemas) => E;
  /**
   * What its schema's decoding changes in an answer, done by hand for one handed over before the
   * schema has come (a machine's lat and lng come as numeric strings and are numbers decoded);
   * none when decoding changes nothing. checked-later.fresh-modules.test.ts holds each to its schema.
   */
  decode?: (wire: unknown) => unknown;
};

export function laterEndpoint<E extends AnyEndpoint>(
  declaration: (schemas: AnswerSchemas) => E,
  method: E['method'],
  path: E['path'],
  decode?: (wire: unknown) => unknown,
): LaterEndpoint<E> {
  return { method, path, declaration, decode };
}

export function isLaterEndpoint<E extends AnyEndpoint>(endpoint: E | LaterEndpoint<E>): endpoint is LaterEndpoint<E> {
  return 'declaration' in endpoint;
}

/**
 * Runs `use` with the schemas in the order it is called: at once while they are there, else once
 * they have come (a live event that arrives before them waits for them, and those after it wait
 * their turn).
 */
export function withAnswerSchemas(): (use: (schemas: AnswerSchemas) => void) => void {
  let queue: Promise<void> = Promise.resolve();
  let waiting = 0;
  return (use) => {
    const now = answerSchemasNow();
    if (now && waiting === 0) {
      use(now);
      return;
    }
    waiting += 1;
    queue = queue
      .then(() => answerSchemas())
      .then(use)
      .finally(() => {
        waiting -= 1;
      });
  };
}
