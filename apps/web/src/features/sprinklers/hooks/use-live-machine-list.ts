import { type MachineListEvent, MachineListEventSchema, type SprinklerListItem } from '@pivot/contracts';
import { useEffect } from 'react';
import { followEventStream } from '@/lib/follow-event-stream';
import { queryClient } from '@/lib/query-client';
import { sprinklerKeys } from '@/lib/sprinkler-detail-cache';
import { getSprinklers } from '../api/get-sprinklers';
import { applyLiveValues } from './use-live-sprinkler';

export const MACHINE_LIST_EVENTS_PATH = '/sprinkler/events';

/**
 * How often at most the table is drawn again while events arrive: fifty machines reporting
 * every 5 s are ten events a second, more than anyone reads.
 */
export const SHOW_EVERY_MS = 1000;

/** The list with one machine's live event applied; a `machines` event changes nothing here (the list is read again). */
export function applyListEvent(list: SprinklerListItem[], event: MachineListEvent): SprinklerListItem[] {
  if (event.type === 'machines') return list;
  return list.map((machine) => {
    if (machine.id !== event.sprinklerId) return machine;
    if (event.type === 'program') {
      return {
        ...machine,
        currentProgramName: event.currentProgramData?.name ?? null,
        currentProgramTimestamp: event.currentProgramTimestamp,
      };
    }
    return applyLiveValues(machine, event);
  });
}

/** The event a stream event carries, or null for anything else (text outside the contract). */
function listEventOf(name: string, data: string): MachineListEvent | null {
  try {
    const parsed = MachineListEventSchema.safeParse(JSON.parse(data));
    return parsed.success && parsed.data.type === name ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * While mounted (the machines table), keeps the machines list live from the user's event
 * stream instead of asking for it again and again: each machine's reports, presence and program
 * go into the list in the cache, and the table shows them at most once a second. The list is read
 * again (an unchanged one answers 304) when the stream says it changed and after a reconnect,
 * when something may have been missed.
 */
export function useLiveMachineList(): void {
  useEffect(() => {
    const stop = new AbortController();
    let showTimer: ReturnType<typeof setTimeout> | undefined;
    const show = () => {
      showTimer ??= setTimeout(() => {
        showTimer = undefined;
        void queryClient.invalidateQueries({ queryKey: [...sprinklerKeys.list, 'page'] });
      }, SHOW_EVERY_MS);
    };
    const readAgain = async () => {
      const fresh = await getSprinklers();
      if (!fresh || stop.signal.aborted) return;
      queryClient.setQueryData(sprinklerKeys.list, fresh);
      show();
    };
    void followEventStream({
      path: MACHINE_LIST_EVENTS_PATH,
      onEvent: ({ name, data }) => {
        const event = listEventOf(name, data);
        if (!event) return;
        if (event.type === 'machines') {
          void readAgain();
          return;
        }
        queryClient.setQueryData<SprinklerListItem[]>(
          sprinklerKeys.list,
          (list) => list && applyListEvent(list, event),
        );
        show();
      },
      onOpen: (reconnected) => {
        if (reconnected) void readAgain();
      },
      signal: stop.signal,
    });
    return () => {
      stop.abort();
      clearTimeout(showTimer);
    };
  }, []);
}
