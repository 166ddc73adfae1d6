import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { type TestApp, createTestApp } from '../support/test-app';

const HSTS = 'max-age=31536000; includeSubDomains';

type Answer = { headers: Record<string, unknown> };
const csp = (answer: Answer) => String(answer.headers['content-security-policy']);
const scriptSources = (answer: Answer) =>
  csp(answer)
    .split(';')
    .find((directive) => directive.startsWith('script-src'));

/** Served over plain http: nothing that sends the browser to https. */
function expectPlainHttpHeaders(answer: Answer): void {
  expect(csp(answer)).toContain("default-src 'self'");
  expect(csp(answer)).not.toContain('upgrade-insecure-requests');
  expect(answer.headers['strict-transport-security']).toBeUndefined();
}

function expectHttpsHeaders(answer: Answer): void {
  expect(csp(answer)).toContain("default-src 'self'");
  expect(csp(answer)).toContain('upgrade-insecure-requests');
  expect(answer.headers['strict-transport-security']).toBe(HSTS);
}

describe('security headers over plain http (PUBLIC_URL http://…, no proxy trusted)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'http://192.0.2.2:3000' });
  });
  afterAll(() => t.close());

  it('leave out upgrade-insecure-requests and HSTS, so a page at http://<address> loads its scripts', async () => {
    const answer = await t.app.inject({ url: '/api/health' });
    expect(answer.statusCode).toBe(200);
    expectPlainHttpHeaders(answer);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('ignore X-Forwarded-Proto from a client that is not a trusted proxy', async () => {
    expectPlainHttpHeaders(await t.app.inject({ url: '/api/health', headers: { 'x-forwarded-proto': 'https' } }));
  });

  it("let the web app's own worker and manifest in, and map tiles from https hosts", async () => {
    const policy = csp(await t.app.inject({ url: '/api/health' }));
    expect(policy).toContain("worker-src 'self'");
    expect(policy).toContain("manifest-src 'self'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("img-src 'self' data: https:");
  });

  it('apply to error answers too', async () => {
    const answer = await t.app.inject({ url: '/api/nothing-here' });
    expect(answer.statusCode).toBe(404);
    expectPlainHttpHeaders(answer);
  });
});

describe('security headers with an https PUBLIC_URL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'https://pivot.example' });
  });
  afterAll(() => t.close());

  it('send upgrade-insecure-requests and HSTS on every answer', async () => {
    expectHttpsHeaders(await t.app.inject({ url: '/api/health' }));
    expectHttpsHeaders(await t.app.inject({ url: '/api/nothing-here' }));
  });
});

describe('security headers behind a trusted proxy (TRUST_PROXY=true)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'http://192.0.2.2:3000', TRUST_PROXY: 'true' });
  });
  afterAll(() => t.close());

  it('follow the X-Forwarded-Proto the proxy sets', async () => {
    expectHttpsHeaders(await t.app.inject({ url: '/api/health', headers: { 'x-forwarded-proto': 'https' } }));
    expectPlainHttpHeaders(await t.app.inject({ url: '/api/health', headers: { 'x-forwarded-proto': 'http' } }));
    // A request that reaches the server directly, on the farm's network.
    expectPlainHttpHeaders(await t.app.inject({ url: '/api/health' }));
  });
});

describe('security headers behind a proxy trusted by its address (TRUST_PROXY=10.0.0.0/8)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'http://192.0.2.2:3000', TRUST_PROXY: '10.0.0.0/8' });
  });
  afterAll(() => t.close());

  it("believe the proxy's X-Forwarded-Proto, and not a client's that reaches the server directly", async () => {
    const viaProxy = { url: '/api/health', remoteAddress: '10.1.2.3', headers: { 'x-forwarded-proto': 'https' } };
    expectHttpsHeaders(await t.app.inject(viaProxy));
    expectPlainHttpHeaders(await t.app.inject({ ...viaProxy, remoteAddress: '192.0.2.77' }));
  });
});

describe("the scripts the web app's pages carry inline", () => {
  const colorMode = "(()=>{document.documentElement.classList.toggle('dark',true)})();";
  let t: TestApp;
  let distDir: string;
  beforeAll(async () => {
    distDir = await mkdtemp(path.join(os.tmpdir(), 'pivot-web-'));
    await writeFile(
      path.join(distDir, 'index.html'),
      `<!doctype html><head><script type="module" async crossorigin src="/assets/session-start-Bp1eu6-Z.js"></script>` +
        `<script>${colorMode}</script></head><body><div id="root"></div></body>`,
    );
    t = await createTestApp({ WEB_DIST_DIR: distDir });
  });
  afterAll(async () => {
    await t.close();
    await rm(distDir, { recursive: true, force: true });
  });

  it('are let in by their hash, and no other inline script is', async () => {
    const hash = createHash('sha256').update(colorMode).digest('base64');
    for (const url of ['/login', '/api/health']) {
      expect(scriptSources(await t.app.inject({ url }))).toBe(`script-src 'self' 'sha256-${hash}'`);
    }
  });

  it('are none without a built web app', async () => {
    const apiOnly = await createTestApp();
    try {
      expect(scriptSources(await apiOnly.app.inject({ url: '/api/health' }))).toBe("script-src 'self'");
    } finally {
      await apiOnly.close();
    }
  });
});

describe('TRUST_PROXY', () => {
  const trustProxy = (value: string) => loadConfig({ TRUST_PROXY: value, SERVER_ID: 'config-test' }).trustProxy;

  it('is true, false, or the addresses and ranges of the proxies', () => {
    expect(trustProxy('true')).toBe(true);
    expect(trustProxy('0')).toBe(false);
    expect(trustProxy('127.0.0.1, 10.0.0.0/8,fd00::/8, loopback')).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      'fd00::/8',
      'loopback',
    ]);
    expect(loadConfig({ SERVER_ID: 'config-test' }).trustProxy).toBe(false);
  });

  it.each(['yes', '10.0.0.0/33', 'proxy.example', '10.0.0.1/8/8', ' , '])('refuses %j with a message', (value) => {
    expect(() => trustProxy(value)).toThrow(/TRUST_PROXY.*true, false, or the proxies' IP addresses/);
  });
});
