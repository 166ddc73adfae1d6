import { expect } from 'vitest';
import type { ApiClient } from './api-client';

export type OpenedStream = {
  /** Resolves with how long the stream stayed open from now once the server ends it; fails after `withinMs`. */
  ends: (withinMs: number) => Promise<number>;
  /** Resolves true when the stream is still open after `ms`. */
  stillOpenAfter: (ms: number) => Promise<boolean>;
  close: () => void;
};

/** Opens a live stream as the browser does, and watches for the server ending it. */
export async function openStream(address: string, client: ApiClient, path: string): Promise<OpenedStream> {
  const controller = new AbortController();
  const response = await fetch(`${address}${path}`, {
    headers: { authorization: `Bearer ${client.access}` },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  const ended = (async () => {
    for (;;) if ((await reader.read()).done) return Date.now();
  })().catch(() => Date.now());
  const within = <T>(ms: number, fallback: T) =>
    new Promise<T>((resolve) => setTimeout(() => resolve(fallback), ms).unref());
  return {
    ends: async (withinMs) => {
      const from = Date.now();
      const at = await Promise.race([ended, within<number | null>(withinMs, null)]);
      if (at === null) throw new Error(`${path} still open after ${withinMs} ms`);
      return at - from;
    },
    stillOpenAfter: async (ms) => (await Promise.race([ended.then(() => false), within(ms, true)])) === true,
    close: () => controller.abort(),
  };
}
