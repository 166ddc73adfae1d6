import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const HEARTBEAT_MS = 25_000;

/** An open server-sent event stream: `send` writes one event, `onEnd` runs once when it ends. */
export type EventStream = { send: (event: string, data: unknown) => void; onEnd: (cleanup: () => void) => void };

/**
 * Server-sent event streams for the routes of one plugin. Each stream keeps proxies from closing
 * it with a heartbeat comment, and ends when the browser goes or the server closes: open streams
 * would keep the server from closing, so they are ended first.
 */
export function eventStreams(app: FastifyInstance) {
  const open = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of open) end();
  });
  return function openStream(request: FastifyRequest, reply: FastifyReply): EventStream {
    reply.hijack();
    const stream = reply.raw;
    stream.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    stream.write(': connected\n\n');
    const cleanups: (() => void)[] = [];
    const heartbeat = setInterval(() => stream.write(': heartbeat\n\n'), HEARTBEAT_MS);
    const end = () => {
      if (!open.delete(end)) return;
      clearInterval(heartbeat);
      for (const cleanup of cleanups) cleanup();
      stream.end();
    };
    open.add(end);
    request.raw.on('close', end);
    return {
      send: (event, data) => stream.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`),
      onEnd: (cleanup) => cleanups.push(cleanup),
    };
  };
}
