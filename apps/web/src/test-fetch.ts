import { afterEach, beforeEach, vi } from 'vitest';

export type FetchCall = { url: string; method: string; headers: Record<string, string> };

/** An answer of the server as `fetch` gives it: a status and a JSON body. */
export const jsonAnswer = (status: number, body: unknown) => () =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/**
 * A `fetch` installed for each test of the file that records every call and gives the answers
 * served, in turn; a call with none left gets no answer at all, as with the connection lost.
 */
export function queuedFetch(): { calls: FetchCall[]; serve: (...answers: (() => Response)[]) => void } {
  const calls: FetchCall[] = [];
  let queue: (() => Response)[] = [];
  beforeEach(() => {
    calls.length = 0;
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      calls.push({ url, method: init.method ?? 'GET', headers: init.headers as Record<string, string> });
      const next = queue.shift();
      if (!next) throw new TypeError('Failed to fetch');
      return next();
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    queue = [];
  });
  return { calls, serve: (...answers) => (queue = answers) };
}
