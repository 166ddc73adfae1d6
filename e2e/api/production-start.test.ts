import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPILED_ENVIRONMENT, NODE_ARGUMENTS, type ServerProcess, startServer } from '../support/server-process';

const repositoryRoot = fileURLToPath(new URL('../..', import.meta.url));

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('the production server that npm start runs', () => {
  let server: ServerProcess | undefined;
  beforeAll(async () => {
    // `npm start` builds the web app too; the server's own build is what this test needs.
    await promisify(execFile)('npm', ['run', 'build', '-w', '@pivot/server'], { cwd: repositoryRoot });
  });
  afterAll(() => server?.stop());

  it('is built, then replaces the npm shell with node on the compiled server, with the arguments the tests run', async () => {
    const manifest = JSON.parse(await readFile(`${repositoryRoot}/package.json`, 'utf8')) as {
      scripts: Record<string, string>;
    };
    const environment = Object.entries(COMPILED_ENVIRONMENT)
      .map(([name, value]) => `${name}=${value}`)
      .join(' ');
    expect(manifest.scripts.start).toBe(
      `npm run build && exec env ${environment} node ${NODE_ARGUMENTS.compiled.join(' ')}`,
    );
  });

  // A first start on a new embedded database (its initdb, every migration): seconds alone, more
  // than a minute beside the rest of the test command.
  it('runs as plain node, answers /api/health, and stops cleanly on SIGTERM', async () => {
    server = await startServer({ DEMO_FLEET: 'false' }, 'compiled');
    const pid = server.child()!.pid!;
    const commandLine = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').filter(Boolean);
    expect(commandLine).toEqual([process.execPath, ...NODE_ARGUMENTS.compiled]);
    const environment = (await readFile(`/proc/${pid}/environ`, 'utf8')).split('\0');
    for (const [name, value] of Object.entries(COMPILED_ENVIRONMENT)) expect(environment).toContain(`${name}=${value}`);
    expect((await fetch(`${server.baseUrl}/api/health`)).status).toBe(200);

    await server.terminate();
    expect(server.child()!.exitCode).toBe(0);
    expect(isRunning(pid)).toBe(false);
    expect(server.errors()).toBe('');
  }, 180_000);
});
