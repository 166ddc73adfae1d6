import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CropSeasonSchema } from '../src/crop-seasons';
import { AUTOPILOT_MESSAGES, WeeklyWindowSchema } from '../src/autopilot';
import { ZOD_ERROR_MAPS, contractMessage } from '../src/zod-messages';

const messagesOf = (schema: z.ZodType, value: unknown, language: 'pl' | 'en') =>
  schema.safeParse(value, { error: ZOD_ERROR_MAPS[language] }).error?.issues.map((issue) => issue.message);

describe("zod's own messages in the user's language", () => {
  it('are Polish as a farmer reads them: missing, mistyped, out of bounds', () => {
    const schema = z.strictObject({
      name: z.string().min(1).max(5),
      rate: z.number().min(0).max(100),
      share: z.number().gt(0),
      sectors: z.array(z.number()).max(2),
    });
    expect(messagesOf(schema, { name: 7, rate: -1, share: 0, sectors: [1, 2, 3] }, 'pl')).toEqual([
      'Nieprawidłowa wartość: oczekiwano typu tekst',
      'Liczba musi wynosić co najmniej 0',
      'Liczba musi być większa od 0',
      'Za dużo pozycji (najwięcej: 2)',
    ]);
    expect(messagesOf(schema, { name: 'too long', rate: 101, share: 1, sectors: [] }, 'pl')).toEqual([
      'Za długi tekst (najwięcej znaków: 5)',
      'Liczba może wynosić najwyżej 100',
    ]);
    expect(messagesOf(schema, { rate: 1, share: 1, sectors: [] }, 'pl')).toEqual(['Brak wymaganej wartości']);
    // What is not worded here comes from zod's own Polish locale.
    expect(messagesOf(schema, { name: 'a', rate: 1, share: 1, sectors: [], extra: 1 }, 'pl')).toEqual([
      'Nierozpoznane klucze: "extra"',
    ]);
    expect(messagesOf(z.enum(['front', 'back']), 'left', 'pl')).toEqual([
      'Nieprawidłowa opcja: oczekiwano jednej z wartości "front"|"back"',
    ]);
  });

  it('are zod’s English in English, and never replace a message the contracts wrote', () => {
    expect(messagesOf(z.number().min(0), -1, 'en')).toEqual(['Too small: expected number to be >=0']);
    const season = { name: '', polygon: null, crop: 'potato', emergence: '01.05.2026', soil: 'loam' };
    expect(messagesOf(CropSeasonSchema, season, 'pl')).toEqual(['Enter the season name']);
  });
});

describe("the contracts' own messages in Polish", () => {
  it('gives those listed in Polish, and leaves the others and every English one as written', () => {
    const window = { days: [1], start: '25:00', end: '06:00' };
    const issues = WeeklyWindowSchema.safeParse(window, { error: ZOD_ERROR_MAPS.pl }).error?.issues ?? [];
    expect(issues.map((issue) => contractMessage(issue.message, 'pl'))).toEqual(['Wpisz godzinę, np. 22:00']);
    expect(issues.map((issue) => contractMessage(issue.message, 'en'))).toEqual([AUTOPILOT_MESSAGES.localTime]);
    const empty = WeeklyWindowSchema.safeParse({ days: [1], start: '06:00', end: '06:00' }).error?.issues ?? [];
    expect(empty.map((issue) => contractMessage(issue.message, 'pl'))).toEqual([
      'Okno nie może zaczynać się i kończyć o tej samej godzinie',
    ]);
    expect(contractMessage('Enter the season name', 'pl')).toBe('Enter the season name');
  });
});
