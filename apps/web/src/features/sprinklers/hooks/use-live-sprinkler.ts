import type { LiveEvent, SprinklerDetail, SprinklerListItem } from '@pivot/contracts';
import { useEffect, useState } from 'react';
import { pathOf } from '@/lib/api-client';
import { laterEndpoint, withAnswerSchemas } from '@/lib/checked-later';
import { followEventStream } from '@/lib/follow-event-stream';
import { queryClient, readAgain } from '@/lib/query-client';
import { sprinklerKeys } from '@/lib/sprinkler-detail-cache';

/** The machine's live events, read with their schema once it has come (lib/checked-later.ts). */
const machineEventsEndpoint = laterEndpoint(
  (contracts) => contracts.sprinklersEndpoints.machineEvents,
  'GET',
  '/sprinkler/:id/events',
);

export type LiveConnection = 'connecting' | 'live' | 'reconnecting';

export type LiveSprinkler = {
  connection: LiveConnection;
  /** What the machine said about its alarm in its latest report, if it is in alarm. */
  alarm: string | null;
};

/** The live values the machines list and a machine's detail both show. */
type LiveValues = Pick<
  SprinklerListItem,
  'status' | 'angle' | 'distance' | 'speed' | 'pressure' | 'flow' | 'reportedAt' | 'online'
>;

/** A report older than the one shown: one the machine kept while offline and sends now. */
function isOlderReport(machine: LiveValues | false | undefined, event: LiveEvent): boolean {
  return event.type === 'telemetry' && !!machine && machine.reportedAt !== null && event.timestamp < machine.reportedAt;
}

/**
 * A report or a presence change applied to a machine, in the list or its detail: telemetry brings
 * the values and the time of the report, presence whether the broker has the machine connected
 * (what shows it applies the silence rule to both). A machine that reports is connected, whatever
 * an older presence message said; a report older than the one shown changes no value.
 */
export function applyLiveValues<Machine extends LiveValues>(
  machine: Machine,
  event: Extract<LiveEvent, { type: 'telemetry' | 'presence' }>,
): Machine {
  if (event.type === 'presence') return { ...machine, online: event.online };
  if (isOlderReport(machine, event)) return { ...machine, online: true };
  const { timestamp, status, angle, distance, speed, pressure, flow } = event;
  return { ...machine, status, angle, distance, speed, pressure, flow, reportedAt: timestamp, online: true };
}

/**
 * A live event applied to the machine's detail: the map, the status panel and the programs
 * follow.
 */
export function applyLiveEvent(detail: SprinklerDetail, event: LiveEvent): SprinklerDetail {
  switch (event.type) {
    case 'presence':
      return applyLiveValues(detail, event);
    case 'program':
      return {
        ...detail,
        currentProgramData: event.currentProgramData,
        currentProgramTimestamp: event.currentProgramTimestamp,
      };
    case 'telemetry':
      return isOlderReport(detail, event)
        ? applyLiveValues(detail, event)
        : { ...applyLiveValues(detail, event), currentPosition: event.currentPosition };
  }
}

/**
 * Keeps the machine's detail live while its page is open: its server-sent events (telemetry,
 * online/offline, program changes) go into the detail in the cache. A dropped stream is opened
 * again, sooner at first and then less often, and the detail is read afresh on each reconnect
 * so nothing said meanwhile is missed.
 */
export function useLiveSprinkler(id: number, enabled: boolean): LiveSprinkler {
  const [live, setLive] = useState<LiveSprinkler>({ connection: 'connecting', alarm: null });

  useEffect(() => {
    if (!enabled) return;
    const stop = new AbortController();
    // Events that come before their schema wait for it, in their order (the first screen paints without zod).
    const checked = withAnswerSchemas();
    const onEvent = (name: string, data: string) => {
      let payload: unknown;
      try {
        payload = JSON.parse(data);
      } catch {
        return; // An event that is not JSON is skipped; the next report brings the values anyway.
      }
      checked(({ LiveEventSchema }) => {
        const parsed = LiveEventSchema.safeParse(payload);
        if (stop.signal.aborted || !parsed.success || parsed.data.type !== name) return;
        const event = parsed.data;
        const older = isOlderReport(queryClient.getQueryData(sprinklerKeys.detail(id)), event);
        queryClient.setQueryData<SprinklerDetail | false>(sprinklerKeys.detail(id), (detail) =>
          detail ? applyLiveEvent(detail, event) : detail,
        );
        if (event.type === 'telemetry' && !older) setLive((current) => ({ ...current, alarm: event.alarm }));
      });
    };

    void followEventStream({
      path: pathOf(machineEventsEndpoint, { id }),
      onEvent: (event) => onEvent(event.name, event.data),
      onOpen: (reconnected) => {
        setLive((current) => ({ ...current, connection: 'live' }));
        if (reconnected) void readAgain({ queryKey: sprinklerKeys.detail(id) });
      },
      onDrop: () => setLive((current) => ({ ...current, connection: 'reconnecting' })),
      // Access ended (a revoke, a farm or a dealer's grant ended): the detail, read again, says so.
      onGone: () => void readAgain({ queryKey: sprinklerKeys.detail(id) }),
      signal: stop.signal,
    });
    return () => stop.abort();
  }, [id, enabled]);

  return live;
}
