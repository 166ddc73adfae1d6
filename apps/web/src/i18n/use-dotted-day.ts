import { useDateTimeFormat } from './use-date-time-format';

const DOTTED = /^(\d{2})\.(\d{2})\.(\d{4})$/;

/**
 * A day as the advice API writes it (dd.mm.yyyy) in the app's one date style: "24.11.2026" (pl),
 * "24/11/2026" (en). For display only: what is sent and compared stays the API's; anything else
 * is shown as it came.
 */
export function useDottedDay(): (dotted: string) => string {
  const format = useDateTimeFormat();
  return (dotted) => {
    const parts = DOTTED.exec(dotted);
    return parts ? format.day(`${parts[3]}-${parts[2]}-${parts[1]}`) : dotted;
  };
}
