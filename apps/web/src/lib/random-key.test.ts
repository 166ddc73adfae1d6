import { afterEach, describe, expect, it, vi } from 'vitest';
import { randomKey } from './random-key';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('randomKey', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is a version 4 UUID', () => {
    expect(randomKey()).toMatch(UUID_V4);
  });

  it('is made from random bytes on a page served over plain http, which has no crypto.randomUUID', () => {
    const { getRandomValues } = crypto;
    vi.stubGlobal('crypto', { getRandomValues: getRandomValues.bind(crypto) });
    const keys = new Set(Array.from({ length: 200 }, () => randomKey()));
    expect(keys.size).toBe(200);
    for (const key of keys) expect(key).toMatch(UUID_V4);
  });
});
