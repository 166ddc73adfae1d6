import type { StationDays } from '@pivot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { laterEndpoint } from '@/lib/checked-later';
import { queryClient } from '@/lib/query-client';
import { serverNow } from '@/lib/server-clock';

/** Read on the machine page: its answer is checked once the schemas have come (lib/checked-later.ts). */
const stationDaysEndpoint = laterEndpoint(
  (contracts) => contracts.weatherEndpoints.stationDays,
  'GET',
  '/weather-station/:id/days/',
);

/** The days the station's table shows: the last complete ones, by the browser's calendar. */
const SHOWN_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

const stationDaysKey = (stationId: string, start: string, stop: string) => [
  'weather-station',
  stationId,
  'days',
  start,
  stop,
];

/**
 * A station's days from `start` to `stop` (real days as dd.mm.yyyy, both included, what
 * StationDaysQuerySchema takes: `dottedDayBefore` writes them), as the water balance takes them.
 * An answer refused once checked is taken back as a failed call's.
 */
export function getStationDays(stationId: string, start: string, stop: string): Promise<StationDays | false> {
  return callEndpoint(stationDaysEndpoint, {
    params: { id: stationId },
    query: { start, stop },
    refusedLater: () => queryClient.setQueryData(stationDaysKey(stationId, start, stop), false),
  });
}

/** dd.mm.yyyy of the browser's calendar day `daysAgo` days before the server's now. */
function dottedDayBefore(daysAgo: number): string {
  const day = new Date(serverNow() - daysAgo * DAY_MS);
  const twoDigits = (value: number) => String(value).padStart(2, '0');
  return `${twoDigits(day.getDate())}.${twoDigits(day.getMonth() + 1)}.${day.getFullYear()}`;
}

/**
 * The last complete days, ending yesterday: today is not over, and a browser a few hours ahead of
 * the farm's time zone would otherwise ask for a day the server has not begun.
 */
export function recentStationDaysQueryOptions(stationId: string) {
  const start = dottedDayBefore(SHOWN_DAYS);
  const stop = dottedDayBefore(1);
  return queryOptions({
    queryKey: stationDaysKey(stationId, start, stop),
    queryFn: () => getStationDays(stationId, start, stop),
    // A day is complete once: new readings change only today, which is not shown.
    staleTime: 60 * 60_000,
  });
}

export function useRecentStationDays(stationId: string) {
  return useQuery(recentStationDaysQueryOptions(stationId));
}
