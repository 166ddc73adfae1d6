import type { z } from 'zod';
import english from 'zod/v4/locales/en.js';
import polish from 'zod/v4/locales/pl.js';
import { AUTOPILOT_MESSAGES } from './autopilot';
import type { Language } from './common';

type Issue = z.core.$ZodRawIssue;

/** zod's type names in the words a farmer reads. */
const POLISH_TYPES: Record<string, string> = {
  string: 'tekst',
  number: 'liczba',
  int: 'liczba całkowita',
  bigint: 'liczba całkowita',
  boolean: 'tak lub nie',
  object: 'obiekt',
  array: 'lista',
  date: 'data',
  null: 'pusta wartość',
};

const polishOfZod = polish().localeError;

/**
 * Polish for zod's own messages. zod's Polish locale is the base, but it leaves the type names in
 * English and writes sizes as "Zbyt mał(y/a/e): oczekiwano, że number będzie wynosić >=0"; the
 * messages a form shows most (a missing or mistyped value, a number or a text out of its bounds)
 * are worded here as a farmer would read them.
 */
function polishMessage(issue: Issue): string | undefined {
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.input === undefined) return 'Brak wymaganej wartości';
      const expected = POLISH_TYPES[issue.expected] ?? issue.expected;
      return `Nieprawidłowa wartość: oczekiwano typu ${expected}`;
    }
    case 'too_small':
    case 'too_big': {
      const small = issue.code === 'too_small';
      const bound = String(small ? issue.minimum : issue.maximum);
      const inclusive = issue.inclusive !== false;
      switch (issue.origin) {
        case 'string':
          return small ? `Za krótki tekst (najmniej znaków: ${bound})` : `Za długi tekst (najwięcej znaków: ${bound})`;
        case 'array':
        case 'set':
          return small ? `Za mało pozycji (najmniej: ${bound})` : `Za dużo pozycji (najwięcej: ${bound})`;
        case 'number':
        case 'int':
        case 'bigint':
          if (small)
            return inclusive ? `Liczba musi wynosić co najmniej ${bound}` : `Liczba musi być większa od ${bound}`;
          return inclusive ? `Liczba może wynosić najwyżej ${bound}` : `Liczba musi być mniejsza od ${bound}`;
        default:
          return undefined;
      }
    }
    default:
      return undefined;
  }
}

/**
 * zod's own messages (a schema's defaults, such as "Too small: expected number to be >=0") in
 * each language: what the server answers a request in that language with, and what the web's
 * forms show. A message the contracts give a schema themselves outranks these (zod asks a
 * schema's own map first).
 */
export const ZOD_ERROR_MAPS: Record<Language, z.core.$ZodErrorMap> = {
  en: english().localeError,
  pl: (issue) => polishMessage(issue) ?? polishOfZod(issue),
};

/**
 * The Polish of messages the contracts write themselves (a schema's own message outranks
 * ZOD_ERROR_MAPS, so it is English in every language): those listed here are given in Polish by
 * `contractMessage`, which the server's validation (a refused request's issues) and the web's forms
 * read. Others stay English, as their schemas wrote them. The autopilot's rules first.
 */
export const CONTRACT_MESSAGES_PL: Readonly<Record<string, string>> = {
  [AUTOPILOT_MESSAGES.localTime]: 'Wpisz godzinę, np. 22:00',
  [AUTOPILOT_MESSAGES.emptyWindow]: 'Okno nie może zaczynać się i kończyć o tej samej godzinie',
  [AUTOPILOT_MESSAGES.windowAt24]: 'Okno nie może zaczynać się o 24:00',
};

/** A message of an issue in a language: one the contracts wrote, translated where it is listed; any other as it is. */
export function contractMessage(message: string, language: Language): string {
  return language === 'pl' ? (CONTRACT_MESSAGES_PL[message] ?? message) : message;
}
