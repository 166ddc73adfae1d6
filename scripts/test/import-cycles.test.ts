import { describe, expect, it } from 'vitest';
import { brokenRulesOfFile } from './lint';
import { importCycles } from '../check-import-cycles';

describe('import cycles', () => {
  const fixture = 'scripts/test/fixtures/type-cycle';

  it('are found when only types go one way, which lint does not see', async () => {
    expect(await brokenRulesOfFile(`${fixture}/unit.ts`)).not.toContain('import-x/no-cycle');
    expect(importCycles([fixture])).toEqual([[`${fixture}/reading.ts`, `${fixture}/unit.ts`]]);
  });
});
