import { afterEach, describe, expect, it } from 'vitest';
import { LOCALE_COOKIE, detectLocale, rememberLocale } from './locale-detection';

describe('locale detection', () => {
  afterEach(() => {
    document.cookie = `${LOCALE_COOKIE}=; Max-Age=0; Path=/`;
  });

  it('takes the cookie first', () => {
    rememberLocale('en');
    expect(document.cookie).toContain('locale=en');
    expect(detectLocale(['pl-PL'])).toBe('en');
  });

  it('then the first browser language the app speaks', () => {
    expect(detectLocale(['de-DE', 'en-GB', 'pl'])).toBe('en');
  });

  it('then Polish', () => {
    expect(detectLocale(['de-DE', 'fr'])).toBe('pl');
  });

  it('ignores a cookie with an unknown locale', () => {
    document.cookie = `${LOCALE_COOKIE}=de; Path=/`;
    expect(detectLocale(['en-US'])).toBe('en');
  });
});
