import { type LiveEvent, LiveEventSchema, type SprinklerDetail } from '@pivot/contracts';
import { useEffect, useState } from 'react';
import { readEventStream } from '@/lib/api-client';
import { queryClient } from '@/lib/query-client';
import { sprinklerKeys } from '@/lib/sprinkler-detail-cache';

export type LiveConnection = 'connecting' | 'live' | 'reconnecting';

export type LiveSprinkler = {
  connection: LiveConnection;
  /** What the machine said about its alarm in its latest report, if it is in alarm. */
  alarm: string | null;
};

const FIRST_RETRY_MS = 1000;
const LONGEST_RETRY_MS = 30_000;

/** A report older than the one the detail shows: one the machine kept while offline and sends now. */
function isOlderReport(detail: SprinklerDetail | false | undefined, event: LiveEvent): boolean {
  return event.type === 'telemetry' && !!detail && detail.reportedAt !== null && event.timestamp < detail.reportedAt;
}

/**
 * A live event applied to the machine's detail: the map, the status panel and the programs
 * follow. Telemetry brings the values and the time of the report; presence whether the broker
 * has the machine connected (the status panel then applies the silence rule to both).
 */
export function applyLiveEvent(detail: SprinklerDetail, event: LiveEvent): SprinklerDetail {
  switch (event.type) {
    case 'presence':
      return { ...detail, online: event.online };
    case 'program':
      return {
        ...detail,
        currentProgramData: event.currentProgramData,
        currentProgramTimestamp: event.currentProgramTimestamp,
      };
    case 'telemetry': {
      // A machine that reports is connected, whatever an older presence message said; a report
      // older than the one shown changes no value.
      if (isOlderReport(detail, event)) return { ...detail, online: true };
      const { timestamp, status, angle, distance, speed, pressure, flow, currentPosition } = event;
      return {
        ...detail,
        status,
        angle,
        distance,
        speed,
        pressure,
        flow,
        currentPosition,
        reportedAt: timestamp,
        online: true,
      };
    }
  }
}

const waitFor = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

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
    const onEvent = (name: string, data: string) => {
      let payload: unknown;
      try {
        payload = JSON.parse(data);
      } catch {
        return; // An event that is not JSON is skipped; the next report brings the values anyway.
      }
      const parsed = LiveEventSchema.safeParse(payload);
      if (!parsed.success || parsed.data.type !== name) return;
      const event = parsed.data;
      const older = isOlderReport(queryClient.getQueryData(sprinklerKeys.detail(id)), event);
      queryClient.setQueryData<SprinklerDetail | false>(sprinklerKeys.detail(id), (detail) =>
        detail ? applyLiveEvent(detail, event) : detail,
      );
      if (event.type === 'telemetry' && !older) setLive((current) => ({ ...current, alarm: event.alarm }));
    };

    void (async () => {
      let retryMs = FIRST_RETRY_MS;
      let reconnecting = false;
      while (!stop.signal.aborted) {
        const onOpen = () => {
          retryMs = FIRST_RETRY_MS;
          setLive((current) => ({ ...current, connection: 'live' }));
          if (reconnecting) void queryClient.invalidateQueries({ queryKey: sprinklerKeys.detail(id) });
        };
        const end = await readEventStream(
          `/sprinkler/${id}/events`,
          (event) => onEvent(event.name, event.data),
          stop.signal,
          onOpen,
        );
        if (stop.signal.aborted) return;
        // The machine is gone for this user (access revoked, machine deleted, signed out).
        if (!end.opened && (end.failure.status === 404 || end.failure.status === 401)) return;
        reconnecting = true;
        setLive((current) => ({ ...current, connection: 'reconnecting' }));
        await waitFor(retryMs, stop.signal);
        retryMs = Math.min(retryMs * 2, LONGEST_RETRY_MS);
      }
    })();
    return () => stop.abort();
  }, [id, enabled]);

  return live;
}
