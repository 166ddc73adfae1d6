import { IdParamsSchema, type LiveEvent } from '@pivot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { LiveEvent as GatewayEvent } from '../../gateway/mqtt-gateway';
import { signedIn } from '../../http/request-context';
import { armLine } from '../../geo/geo';
import type { SprinklerRow } from '../sprinklers/sprinklers.repository';
import type { SprinklersService } from '../sprinklers/sprinklers.service';
import type { LiveHub } from './live-hub';
import { measuredValues } from './telemetry.repository';

const HEARTBEAT_MS = 25_000;

/** Turns a machine's report into the event browsers receive. */
export function toLiveEvent(sprinkler: SprinklerRow, event: GatewayEvent): LiveEvent {
  if (event.kind === 'presence') return { type: 'presence', online: event.message.online };
  if (event.kind === 'program') {
    const { program } = event.message;
    return {
      type: 'program',
      currentProgramData: program
        ? { type: 'FeatureCollection', name: program.name, features: program.programData.features }
        : null,
      currentProgramTimestamp: program?.uploadedAt ?? null,
    };
  }
  const { message } = event;
  const centre = { lat: Number(sprinkler.lat), lng: Number(sprinkler.lng) };
  return {
    type: 'telemetry',
    timestamp: message.ts,
    ...measuredValues(message),
    alarm: message.alarm ?? null,
    currentPosition: {
      type: 'Feature',
      geometry: message.position ?? armLine(centre, message.angle, message.distance),
      properties: {},
    },
  };
}

/**
 * GET /sprinkler/{id}/events: a server-sent event stream of the machine's telemetry,
 * online/offline changes and program changes, for as long as the browser keeps it open.
 */
export const liveRoutes: FastifyPluginAsyncZod<{ sprinklers: SprinklersService; hub: LiveHub }> = async (
  app,
  { sprinklers, hub },
) => {
  // Open streams would keep the server from closing: end them first.
  const openStreams = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of openStreams) end();
  });

  app.get(
    '/sprinkler/:id/events',
    { schema: { tags: ['sprinklers'], params: IdParamsSchema, produces: ['text/event-stream'] } },
    async (request, reply) => {
      const sprinkler = await sprinklers.accessible(signedIn(request).user, request.params.id);
      reply.hijack();
      const stream = reply.raw;
      stream.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      stream.write(': connected\n\n');
      const unsubscribe = hub.subscribe(sprinkler.internalId, (event) => {
        const live = toLiveEvent(sprinkler, event);
        stream.write(`event: ${live.type}\ndata: ${JSON.stringify(live)}\n\n`);
      });
      const heartbeat = setInterval(() => stream.write(': heartbeat\n\n'), HEARTBEAT_MS);
      const end = () => {
        clearInterval(heartbeat);
        unsubscribe();
        openStreams.delete(end);
        stream.end();
      };
      openStreams.add(end);
      request.raw.on('close', end);
    },
  );
};
