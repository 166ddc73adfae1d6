import { describe, expect, it } from 'vitest';
import { brokenRules, brokenRulesOfFile } from './lint';

describe('rules for the whole repository', () => {
  it('refuses an import cycle', async () => {
    expect(await brokenRulesOfFile('scripts/test/fixtures/cycle/first.ts')).toContain('import-x/no-cycle');
  });

  it('keeps the shared contracts free of the apps', async () => {
    const code = "import { buildApp } from '@pivot/server/src/app';\nexport const app = buildApp;\n";
    expect(await brokenRules('packages/contracts/src/example.ts', code)).toContain('no-restricted-imports');
  });
});
