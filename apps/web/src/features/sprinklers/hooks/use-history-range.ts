import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { WatermapRange } from '../api/get-watermap';
import {
  FIELD_FORMAT,
  RANGE_SEPARATOR,
  formatDate,
  formatRange,
  parseRange,
  shortcutRange,
} from '@/ui/date-picker/dates';

const PARAM = 'history';
const URL_SEPARATOR = '-';

export type HistoryRange = {
  /** 'DD.MM.YYYY - DD.MM.YYYY', as the date picker shows it; null while the history is hidden. */
  range: string | null;
  /** The watermap call's start and stop (dd.mm.yyyy). */
  query: WatermapRange | null;
  show: (range: string | null) => void;
  /** Shows the last 30 days, or hides the history. */
  toggle: () => void;
};

function parseHistoryParam(param: string | null) {
  const [start, stop] = (param ?? '').split(URL_SEPARATOR);
  return start && stop ? parseRange(`${start}${RANGE_SEPARATOR}${stop}`, FIELD_FORMAT, RANGE_SEPARATOR) : null;
}

function watermapRange(parsed: ReturnType<typeof parseHistoryParam>): WatermapRange | null {
  return parsed && { start: formatDate(parsed.start, FIELD_FORMAT), stop: formatDate(parsed.end, FIELD_FORMAT) };
}

/** The watermap's range in a machine page's address (its search part), or null when the history is hidden. */
export function historyWatermapRange(params: URLSearchParams): WatermapRange | null {
  return watermapRange(parseHistoryParam(params.get(PARAM)));
}

/**
 * The irrigation history's dates, kept in the page's address (`?history=01.04.2026-30.09.2026`),
 * so a season's view can be bookmarked, shared or reloaded. The same values and functions from one
 * render to the next while the address stays: the page renders on every report of the machine,
 * and what shows the dates is then not drawn again.
 */
export function useHistoryRange(): HistoryRange {
  const [params, setParams] = useSearchParams();
  const param = params.get(PARAM);
  const parsed = useMemo(() => parseHistoryParam(param), [param]);

  const show = useCallback(
    (range: string | null) => {
      const next = range && parseRange(range, FIELD_FORMAT, RANGE_SEPARATOR);
      setParams(
        (current) => {
          const updated = new URLSearchParams(current);
          if (next) {
            updated.set(
              PARAM,
              `${formatDate(next.start, FIELD_FORMAT)}${URL_SEPARATOR}${formatDate(next.end, FIELD_FORMAT)}`,
            );
          } else {
            updated.delete(PARAM);
          }
          return updated;
        },
        { replace: true },
      );
    },
    [setParams],
  );

  return useMemo(
    () => ({
      range: parsed && formatRange(parsed, FIELD_FORMAT, RANGE_SEPARATOR),
      query: watermapRange(parsed),
      show,
      toggle: () =>
        show(parsed ? null : formatRange(shortcutRange('last30Days', new Date()), FIELD_FORMAT, RANGE_SEPARATOR)),
    }),
    [parsed, show],
  );
}
