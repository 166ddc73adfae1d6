import { describe, expect, it } from 'vitest';
import { freeProgramName } from './program-from-advice';

describe('the program from advice', () => {
  it('is stored under a name no program of the machine has', () => {
    expect(freeProgramName('Porada 26.11.2026', ['Lato'])).toBe('Porada 26.11.2026');
    expect(freeProgramName('Porada 26.11.2026', ['Porada 26.11.2026', 'Porada 26.11.2026 (2)'])).toBe(
      'Porada 26.11.2026 (3)',
    );
  });
});
