import { describe, expect, it } from 'vitest';
import { brokenRules } from './lint';

describe('rules for the whole repository', () => {
  it('keeps the shared contracts free of the apps', async () => {
    const code = "import { buildApp } from '@pivot/server/src/app';\nexport const app = buildApp;\n";
    expect(await brokenRules('packages/contracts/src/example.ts', code)).toContain('no-restricted-imports');
  });
});
