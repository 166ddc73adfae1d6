import type { Language } from './common';
import type { SprinklerStatus } from './sprinklers';

/**
 * The words the machines table shows for a machine's state, in each language: its status while
 * online, and "offline" with what it was doing when last heard. The web app's catalogues hold the
 * same words (a catalogue test keeps them equal); the server matches the list's search against
 * these, so a user finds machines by the words on their screen.
 */
export const MACHINE_STATE_WORDS: Record<
  Language,
  { status: Record<SprinklerStatus, string>; offline: string; wasDoing: Record<SprinklerStatus, string> }
> = {
  en: {
    status: { stop: 'Stopped', front: 'Forward', back: 'Reverse', alarm: 'Alarm' },
    offline: 'Offline',
    wasDoing: {
      stop: 'was stopped',
      front: 'was moving forward',
      back: 'was moving in reverse',
      alarm: 'was in alarm',
    },
  },
  pl: {
    status: { stop: 'Zatrzymana', front: 'Do przodu', back: 'Do tyłu', alarm: 'Alarm' },
    offline: 'Bez łączności',
    wasDoing: {
      stop: 'była zatrzymana',
      front: 'jechała do przodu',
      back: 'jechała do tyłu',
      alarm: 'była w alarmie',
    },
  },
};

/** A machine's state as the table words it: online with its status (null before its first report), or offline. */
export type ShownMachineState = { online: boolean; status: SprinklerStatus | null };

/** The dash the table shows for a status not reported yet. */
export const NO_VALUE_SHOWN = '—';

/** The text of a state as the machines table shows it, in `language` (the web's `statusText`). */
export function machineStateText({ online, status }: ShownMachineState, language: Language): string {
  const words = MACHINE_STATE_WORDS[language];
  if (online) return status ? words.status[status] : NO_VALUE_SHOWN;
  return [words.offline, status ? words.wasDoing[status] : ''].join(' ');
}
