import type { Params } from 'react-router';
import { callSprinklerDetail, callWatermap, earlyDetail, earlyWatermap } from '@/features/sprinklers/api/first-calls';
import { historyWatermapRange } from '@/features/sprinklers/hooks/use-history-range';
import { askEarly } from '@/lib/early-answers';

/**
 * What the machine page asks for first, known from its address: the machine's detail and, while
 * the irrigation history is shown, its watermap. Asked as soon as the session's token is back,
 * without waiting for the page's code or its libraries: the page's own queries then take the
 * answers (lib/early-answers.ts).
 */
export function askSprinklerPage(params: Params, search: URLSearchParams): void {
  const id = Number(params.id);
  askEarly(earlyDetail(id), () => callSprinklerDetail(id));
  const range = historyWatermapRange(search);
  if (range) askEarly(earlyWatermap(id, range), () => callWatermap(id, range));
}
