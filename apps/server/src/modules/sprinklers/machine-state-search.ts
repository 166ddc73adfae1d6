import { type Language, SPRINKLER_STATUSES, type ShownMachineState, machineStateText } from '@pivot/contracts';

const EVERY_SHOWN_STATE: ShownMachineState[] = [true, false].flatMap((online) =>
  [null, ...SPRINKLER_STATUSES].map((status) => ({ online, status })),
);

/**
 * The machine states whose words, as the machines table shows them in `language`, contain the
 * search text (case aside, as the language writes it): "przodu" finds the machines moving forward
 * and those offline that were; the database then looks for machines in those states.
 */
export function statesWordedAs(search: string, language: Language): ShownMachineState[] {
  const needle = search.toLocaleLowerCase(language);
  return EVERY_SHOWN_STATE.filter((state) =>
    machineStateText(state, language).toLocaleLowerCase(language).includes(needle),
  );
}
