import { LanguageSchema } from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import { LOCALES, isLocale } from './locales';

describe('LOCALES', () => {
  it('are the languages of the contract, in its order', () => {
    expect(LOCALES).toEqual(LanguageSchema.options);
  });

  it('tells a locale from anything else', () => {
    expect(isLocale('pl')).toBe(true);
    expect(isLocale('en')).toBe(true);
    expect(isLocale('de')).toBe(false);
    expect(isLocale(undefined)).toBe(false);
  });
});
