import type { AccessLevel } from '@pivot/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { signedIn } from './request-context';

const HEARTBEAT_MS = 25_000;
/**
 * Events are written to a stream at most this often, those of the time between together: an
 * administrator's list stream of a large fleet gets thousands of events a second, and one write
 * each (a system call, a TCP segment) cost more of the server's CPU than everything else a
 * report costs. A live value shows at most this much later.
 */
export const STREAM_WRITE_EVERY_MS = 50;

/**
 * An open server-sent event stream: `send` writes one event, `sendJson` one whose data is
 * already JSON (one event sent to many streams is serialised once), `onEnd` runs once when it ends.
 */
export type EventStream = {
  send: (event: string, data: unknown) => void;
  sendJson: (event: string, json: string) => void;
  onEnd: (cleanup: () => void) => void;
};

/**
 * What a stream was opened with, so that it can be ended once it is no longer allowed: who opened
 * it, in which session, with which rights, and the machine it shows (a machine's own stream).
 */
export type GuardedStream = {
  userId: number;
  sessionId: string;
  /** Opened by an administrator: it shows what only administrators may see. */
  admin: boolean;
  /** The machine a machine stream shows; none for the list and the alerts. */
  sprinklerId?: number;
  /**
   * The level of the grant a user's machine stream was opened under: a change ends the stream, so
   * the page reads the machine again and shows (or stops showing) its controls.
   */
  level?: AccessLevel;
  /** Ends the stream (the browser sees it close, and opens a new one if it is still allowed to). */
  end: () => void;
};

/**
 * Keeps the open streams to what their users may still see (the users module's `OpenStreams`):
 * `admit` registers a stream, or throws when its user holds too many, and returns the function
 * that forgets it.
 */
export type StreamGuard = { admit: (stream: GuardedStream) => () => void };

/**
 * Server-sent event streams for the routes of one plugin. Each stream keeps proxies from closing
 * it with a heartbeat comment, and ends when the browser goes, when the guard finds it no longer
 * allowed (a revoke, a sign-out, a deletion), or when the server closes: open streams would keep
 * the server from closing, so they are ended first.
 */
export function eventStreams(app: FastifyInstance, guard: StreamGuard) {
  const open = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of open) end();
  });
  return function openStream(
    request: FastifyRequest,
    reply: FastifyReply,
    shows: { sprinklerId?: number; level?: AccessLevel } = {},
  ): EventStream {
    const { user, sessionId } = signedIn(request);
    const cleanups: (() => void)[] = [];
    const end = () => {
      if (!open.delete(end)) return;
      clearInterval(heartbeat);
      clearTimeout(writing);
      for (const cleanup of cleanups) cleanup();
      stream.end();
    };
    // Admitted before the answer starts, so a refusal (too many streams) is an ordinary error answer.
    cleanups.push(guard.admit({ userId: user.id, sessionId, admin: user.admin, ...shows, end }));
    reply.hijack();
    const stream = reply.raw;
    stream.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    stream.write(': connected\n\n');
    const heartbeat = setInterval(() => stream.write(': heartbeat\n\n'), HEARTBEAT_MS);
    open.add(end);
    request.raw.on('close', end);
    // What waits for the next write, and its timer.
    let pending = '';
    let writing: NodeJS.Timeout | undefined;
    const writePending = () => {
      writing = undefined;
      if (open.has(end)) stream.write(pending);
      pending = '';
    };
    const sendJson = (event: string, json: string) => {
      if (!open.has(end)) return;
      pending += `event: ${event}\ndata: ${json}\n\n`;
      writing ??= setTimeout(writePending, STREAM_WRITE_EVERY_MS);
    };
    return {
      send: (event, data) => sendJson(event, JSON.stringify(data)),
      sendJson,
      onEnd: (cleanup) => cleanups.push(cleanup),
    };
  };
}
