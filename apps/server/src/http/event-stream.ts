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
 * Events waiting for the next write are written at once when they come to this many characters,
 * without waiting out the 50 ms: a burst never piles up in the process.
 */
const WRITE_AT_CHARS = 64 * 1024;
/**
 * A client whose socket holds this much written and not yet sent (beyond what the kernel holds)
 * is behind: a reading client lags this much only for a moment, as a burst of events goes out.
 */
const BEHIND_AT_BYTES = 256 * 1024;
/**
 * Events that must each arrive (alerts) held for a client that has fallen behind; one more
 * closes the stream, and its browser opens it again and reads what it missed.
 */
export const MAX_HELD_EVENTS = 64;

/**
 * One server-sent event as it is written, built once for every stream it goes to: a report sent
 * to twenty streams costs one serialisation and one frame, and a stream that is behind keeps the
 * frame itself (a stalled client at thousands of reports a second made the process build, and
 * V8 grow its heap for, a frame a stream a report).
 */
export type EventFrame = string & { readonly __eventFrame: unique symbol };

export function eventFrame(event: string, json: string): EventFrame {
  return `event: ${event}\ndata: ${json}\n\n` as EventFrame;
}

/**
 * An open server-sent event stream: `send` writes one event, `sendFrame` one already framed
 * (`eventFrame`), `onEnd` runs once when it ends. An event sent with `latest` carries the latest
 * state of what that name names (one machine's telemetry, say): while the client is behind, a
 * newer event of the same name replaces the older one not yet written. An event without it is
 * held until written.
 */
export type EventStream = {
  send: (event: string, data: unknown, latest?: string) => void;
  sendFrame: (frame: EventFrame, latest?: string) => void;
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
  /**
   * What the process holds for this stream that its client has not taken yet, in characters (about
   * bytes): written and waiting for the socket, and events waiting to be written.
   */
  bufferedChars: () => number;
};

/**
 * Keeps the open streams to what their users may still see and what the instance can hold (the
 * users module's `OpenStreams`): `admit` registers a stream, or throws when its user or the
 * instance holds too many, and returns the function that forgets it. A stream whose client has
 * left what was written to it unread for `writeTimeoutMs` is closed, and the guard told.
 */
export type StreamGuard = {
  admit: (stream: GuardedStream) => () => void;
  writeTimeoutMs: number;
  closedStalled: (stream: GuardedStream) => void;
};

/**
 * Server-sent event streams for the routes of one plugin. Each stream keeps proxies from closing
 * it with a heartbeat comment, and ends when the browser goes, when the guard finds it no longer
 * allowed (a revoke, a sign-out, a deletion), or when the server closes: open streams would keep
 * the server from closing, so they are ended first.
 *
 * A client that reads slower than events come (or not at all) fills its socket's buffers; from
 * then on, until the socket drains, nothing more is written: the events keep only the latest of
 * each state and at most `MAX_HELD_EVENTS` others, and are written together once it drains. One
 * more held event, or a socket that does not drain within the guard's write timeout, closes the
 * stream. So what a stalled client costs the process stays small, however many events it misses.
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
    const stream = reply.raw;
    const cleanups: (() => void)[] = [];
    // What waits for the next write, and its timer.
    let pending = '';
    let writing: NodeJS.Timeout | undefined;
    // While the client is behind: the newest unwritten event of each state, by its name, and the
    // events that must each arrive, in order.
    const latest = new Map<string, string>();
    let held: string[] = [];
    let heldChars = 0;
    // Runs from a write the socket could not take until it drains.
    let stalling: NodeJS.Timeout | undefined;

    const end = () => {
      if (!open.delete(end)) return;
      clearInterval(heartbeat);
      clearTimeout(writing);
      clearTimeout(stalling);
      for (const cleanup of cleanups) cleanup();
      pending = '';
      latest.clear();
      held = [];
      heldChars = 0;
      // Ending gracefully waits for the client to read what is written: one behind is cut off, and
      // one that does not read the rest within the write timeout too.
      if (stream.writableLength >= BEHIND_AT_BYTES) {
        stream.destroy();
        return;
      }
      stream.end();
      const cutOff = setTimeout(() => stream.destroy(), guard.writeTimeoutMs).unref();
      stream.once('finish', () => clearTimeout(cutOff));
    };
    const guarded: GuardedStream = {
      userId: user.id,
      sessionId,
      admin: user.admin,
      ...shows,
      end,
      bufferedChars: () => stream.writableLength + pending.length + heldChars,
    };
    const closeStalled = () => {
      if (!open.has(end)) return;
      guard.closedStalled(guarded);
      end();
    };
    const write = (text: string) => {
      if (!stream.write(text)) stalling ??= setTimeout(closeStalled, guard.writeTimeoutMs);
    };
    const writePending = () => {
      clearTimeout(writing);
      writing = undefined;
      if (open.has(end) && pending !== '') write(pending);
      pending = '';
    };
    const hold = (frame: string, name: string | undefined) => {
      if (name === undefined) {
        if (held.length >= MAX_HELD_EVENTS) {
          closeStalled();
          return;
        }
        held.push(frame);
      } else {
        const older = latest.get(name);
        if (older !== undefined) heldChars -= older.length;
        // Deleted first, so the map's order is the order of the newest events.
        latest.delete(name);
        latest.set(name, frame);
      }
      heldChars += frame.length;
    };
    const drained = () => {
      clearTimeout(stalling);
      stalling = undefined;
      if (heldChars === 0) return;
      pending += held.join('') + [...latest.values()].join('');
      held = [];
      latest.clear();
      heldChars = 0;
      writePending();
    };

    // Admitted before the answer starts, so a refusal (too many streams) is an ordinary error answer.
    cleanups.push(guard.admit(guarded));
    reply.hijack();
    stream.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    write(': connected\n\n');
    // A stream waiting for its client to read is not idle: no heartbeat is needed, nor written.
    const heartbeat = setInterval(() => {
      if (stream.writableLength === 0) write(': heartbeat\n\n');
    }, HEARTBEAT_MS);
    open.add(end);
    request.raw.on('close', end);
    stream.on('drain', drained);
    const sendFrame = (frame: EventFrame, name?: string) => {
      if (!open.has(end)) return;
      // Once anything is held, everything is, until the socket drains: an event never overtakes an older one.
      if (heldChars > 0 || stream.writableLength >= BEHIND_AT_BYTES) hold(frame, name);
      else {
        pending += frame;
        if (pending.length >= WRITE_AT_CHARS) writePending();
        else writing ??= setTimeout(writePending, STREAM_WRITE_EVERY_MS);
      }
    };
    return {
      send: (event, data, name) => sendFrame(eventFrame(event, JSON.stringify(data)), name),
      sendFrame,
      onEnd: (cleanup) => cleanups.push(cleanup),
    };
  };
}
