import { describe, expect, it } from 'vitest';
import { importCycles } from '../check-import-cycles';

describe('import cycles', () => {
  it('are found between two files that use each other', () => {
    const fixture = 'scripts/test/fixtures/cycle';
    expect(importCycles([fixture])).toEqual([[`${fixture}/first.ts`, `${fixture}/second.ts`]]);
  });

  it('are found when only types go one way', () => {
    const fixture = 'scripts/test/fixtures/type-cycle';
    expect(importCycles([fixture])).toEqual([[`${fixture}/reading.ts`, `${fixture}/unit.ts`]]);
  });

  it('are not found where imports go one way', () => {
    expect(importCycles(['packages/contracts'])).toEqual([]);
  });
});
