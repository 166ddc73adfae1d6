import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { MESSAGE_FLOW } from '../../src/gateway/embedded-broker';
import { burst } from '../support/aedes-burst';

const SERVER_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TSX = path.join(SERVER_ROOT, '..', '..', 'node_modules', '.bin', 'tsx');

describe('the embedded broker under a burst of reports', () => {
  it('passes on 30,000 messages that arrive while a subscriber is slow', async () => {
    expect(await burst(MESSAGE_FLOW, 30_000)).toBe(30_150);
  });

  it('would have died of the recursion with aedes’s own queue', async () => {
    const script = path.join(SERVER_ROOT, 'test', 'support', 'aedes-burst.ts');
    const run = promisify(execFile)(TSX, [script, '30000']);
    await expect(run).rejects.toMatchObject({ stderr: expect.stringContaining('Maximum call stack size exceeded') });
  });
});
