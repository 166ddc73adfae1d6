import { type LiveEvent, sprinklersEndpoints } from '@pivot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { MachineEvent } from '../../gateway/mqtt-gateway';
import { endpointRoute } from '../../http/endpoint-route';
import { type EventFrame, type EventStream, type StreamGuard, eventFrame, eventStreams } from '../../http/event-stream';
import { signedIn } from '../../http/request-context';
import type { TelemetryService } from '../telemetry';
import type { MachineListStreams } from './machine-list-streams';
import { presentLiveEvent } from './sprinklers.presenter';
import type { SprinklersService } from './sprinklers.service';
import type { SprinklerRow } from './sprinklers.repository';

type PresentedEvent = { centre: Pick<SprinklerRow, 'lat' | 'lng'>; type: LiveEvent['type']; frame: EventFrame };

/**
 * Server-sent event streams, for as long as the browser keeps them open: GET /sprinkler/events,
 * the live events of every machine the user may see (the machines table), and
 * GET /sprinkler/{id}/events, one machine's telemetry, online/offline and program changes. The
 * guard ends a stream once its session ends or its machine is no longer the user's to see.
 */
export const liveRoutes: FastifyPluginAsyncZod<{
  sprinklers: SprinklersService;
  telemetry: TelemetryService;
  listStreams: MachineListStreams;
  guard: StreamGuard;
}> = async (app, { sprinklers, telemetry, listStreams, guard }) => {
  const openStream = eventStreams(app, guard);
  // Each machine event presented, serialised and framed once for all the streams of its machine:
  // twenty pages of one machine cost one frame an event, not twenty. Its centre is kept with it,
  // since a stream opened before the machine was moved presents it from where it was.
  const presented = new WeakMap<MachineEvent, PresentedEvent>();
  const presentOnce = (sprinkler: SprinklerRow, event: MachineEvent): PresentedEvent => {
    const known = presented.get(event);
    if (known && known.centre.lat === sprinkler.lat && known.centre.lng === sprinkler.lng) return known;
    const live = presentLiveEvent(sprinkler, event);
    const fresh = { centre: sprinkler, type: live.type, frame: eventFrame(live.type, JSON.stringify(live)) };
    presented.set(event, fresh);
    return fresh;
  };

  endpointRoute(app, sprinklersEndpoints.events, {}, async (request, reply) => {
    const { user } = signedIn(request);
    // The stream opens once the user's machines are known: an event after it opened is never
    // missed for want of them.
    const opened: { stream?: EventStream } = {};
    const stopFollowing = await listStreams.follow(user, (frame, latest) => opened.stream?.sendFrame(frame, latest));
    if (request.raw.socket.destroyed) {
      stopFollowing();
      reply.hijack();
      return;
    }
    try {
      opened.stream = openStream(request, reply);
    } catch (error) {
      stopFollowing();
      throw error;
    }
    opened.stream.onEnd(stopFollowing);
  });

  endpointRoute(app, sprinklersEndpoints.machineEvents, {}, async (request, reply) => {
    const { user } = signedIn(request);
    const sprinkler = await sprinklers.accessible(user, request.params.id);
    const level = await sprinklers.levelOf(user, sprinkler.id);
    const stream = openStream(request, reply, { sprinklerId: sprinkler.id, level });
    stream.onEnd(
      telemetry.watch(sprinkler.internalId, (event) => {
        const { type, frame } = presentOnce(sprinkler, event);
        // A client behind needs only the machine's latest report, presence and program.
        stream.sendFrame(frame, type);
      }),
    );
  });
};
