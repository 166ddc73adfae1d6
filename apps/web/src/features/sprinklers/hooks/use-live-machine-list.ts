import type { MachineListEvent, SprinklerListItem, SprinklerPage } from '@pivot/contracts';
import { useEffect } from 'react';
import { pathOf } from '@/lib/api-client';
import { type AnswerSchemas, laterEndpoint, withAnswerSchemas } from '@/lib/checked-later';
import { followEventStream } from '@/lib/follow-event-stream';
import { queryClient, readAgain } from '@/lib/query-client';
import { sprinklerKeys } from '@/lib/sprinkler-detail-cache';
import { applyLiveValues } from './use-live-sprinkler';

/** The user's live events, read with their schema once it has come (lib/checked-later.ts). */
const eventsEndpoint = laterEndpoint((contracts) => contracts.sprinklersEndpoints.events, 'GET', '/sprinkler/events');

/** The pages of the machines table in the cache: each sort, search, filter and page read so far. */
export const MACHINE_PAGES_KEY = [...sprinklerKeys.list, 'page'] as const;

/**
 * How often at most the table is drawn again while events arrive: fifty machines reporting
 * every 5 s are ten events a second, more than anyone reads.
 */
export const SHOW_EVERY_MS = 1000;

/** The list with one machine's live event applied; a `machines` event changes nothing here (the page is read again). */
export function applyListEvent<Item extends SprinklerListItem>(list: Item[], event: MachineListEvent): Item[] {
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
function listEventOf({ MachineListEventSchema }: AnswerSchemas, name: string, data: string): MachineListEvent | null {
  try {
    const parsed = MachineListEventSchema.safeParse(JSON.parse(data));
    return parsed.success && parsed.data.type === name ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Reads the pages again: the one shown now, the others when next shown (an unchanged page is cheap to answer). */
function readPagesAgain(): void {
  void readAgain({ queryKey: MACHINE_PAGES_KEY });
}

/**
 * While mounted (the machines table), keeps the rows shown live from the user's event stream
 * instead of asking for the page again and again: each machine's reports, presence and program go
 * into the pages in the cache, at most once a second. A row keeps its place until the page is
 * read again: when the stream says the list changed (a machine granted, revoked, added, renamed)
 * and after a reconnect, when something may have been missed.
 */
export function useLiveMachineList(): void {
  useEffect(() => {
    const stop = new AbortController();
    const checked = withAnswerSchemas();
    let pending: MachineListEvent[] = [];
    let showTimer: ReturnType<typeof setTimeout> | undefined;
    const show = () => {
      showTimer ??= setTimeout(() => {
        showTimer = undefined;
        const events = pending;
        pending = [];
        queryClient.setQueriesData<SprinklerPage | false>({ queryKey: MACHINE_PAGES_KEY }, (page) =>
          page ? { ...page, data: events.reduce<SprinklerPage['data']>(applyListEvent, page.data) } : page,
        );
      }, SHOW_EVERY_MS);
    };
    void followEventStream({
      path: pathOf(eventsEndpoint),
      // Events that come before their schema wait for it, in their order (the first screen paints without zod).
      onEvent: ({ name, data }) =>
        checked((schemas) => {
          const event = stop.signal.aborted ? null : listEventOf(schemas, name, data);
          if (!event) return;
          if (event.type === 'machines') {
            readPagesAgain();
            return;
          }
          pending.push(event);
          show();
        }),
      onOpen: (reconnected) => {
        if (reconnected) readPagesAgain();
      },
      signal: stop.signal,
    });
    return () => {
      stop.abort();
      clearTimeout(showTimer);
    };
  }, []);
}
