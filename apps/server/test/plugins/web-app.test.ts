import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../support/test-app';

describe('serving the built web app', () => {
  let t: TestApp;
  let distDir: string;
  beforeAll(async () => {
    distDir = await mkdtemp(path.join(os.tmpdir(), 'pivot-web-'));
    await mkdir(path.join(distDir, 'assets'));
    await writeFile(path.join(distDir, 'index.html'), '<!doctype html><title>Pivot app</title>');
    await writeFile(path.join(distDir, 'assets', 'app.js'), 'console.log("app")');
    await writeFile(path.join(distDir, 'assets', 'index-ldBt-qtn.js'), 'console.log("entry")');
    await writeFile(path.join(distDir, 'assets', 'index-gXbMYf_8.css'), 'body { margin: 0 }');
    await writeFile(path.join(distDir, 'manifest.webmanifest'), '{"name":"Pivot"}');
    await writeFile(path.join(distDir, 'sw.js'), 'self.addEventListener("fetch", () => {})');
    await writeFile(path.join(distDir, 'color-mode.js'), '(() => {})()');
    await mkdir(path.join(distDir, 'pages', 'en'), { recursive: true });
    await writeFile(
      path.join(distDir, 'pages', 'login.html'),
      '<!doctype html><title>Pivot login, prerendered</title>',
    );
    await writeFile(
      path.join(distDir, 'pages', 'en', 'login.html'),
      '<!doctype html><title>Pivot login, in English</title>',
    );
    await mkdir(path.join(distDir, 'icons'));
    await writeFile(path.join(distDir, 'icons', 'pivot-192.png'), 'png');
    t = await createTestApp({ WEB_DIST_DIR: distDir });
  });
  afterAll(async () => {
    await t.close();
    await rm(distDir, { recursive: true, force: true });
  });

  it.each(['/', '/forgot', '/en/sprinklers/12', '/dashboard/account?tab=1'])('answers the app for %s', async (url) => {
    const response = await t.app.inject({ url });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body).toContain('Pivot app');
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it.each([
    ['/login', 'Pivot login, prerendered'],
    ['/login?redirect=%2Fsprinklers', 'Pivot login, prerendered'],
    ['/en/login', 'Pivot login, in English'],
    ['/en/sprinklers', 'Pivot app'],
    ['/login/', 'Pivot app'],
  ])('answers %s with the page the build rendered for it, if any', async (url, title) => {
    const response = await t.app.inject({ url });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body).toContain(title);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('serves its files', async () => {
    const response = await t.app.inject({ url: '/assets/app.js' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('console.log');
  });

  it('lets browsers keep the hashed build files for good', async () => {
    for (const url of ['/assets/index-ldBt-qtn.js', '/assets/index-gXbMYf_8.css', '/assets/app.js']) {
      const response = await t.app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toBe('public, max-age=31536000, immutable');
    }
  });

  it('has the page, the manifest, the service worker and the unhashed files asked for again each time', async () => {
    for (const url of [
      '/',
      '/index.html',
      '/manifest.webmanifest',
      '/sw.js',
      '/color-mode.js',
      '/icons/pivot-192.png',
    ]) {
      const response = await t.app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toBe('no-cache');
    }
    expect((await t.app.inject({ url: '/manifest.webmanifest' })).headers['content-type']).toContain(
      'application/manifest+json',
    );
    expect((await t.app.inject({ url: '/sw.js' })).headers['content-type']).toContain('javascript');
  });

  it('answers a file asked for again unchanged with 304', async () => {
    const first = await t.app.inject({ url: '/sw.js' });
    const again = await t.app.inject({ url: '/sw.js', headers: { 'if-none-match': String(first.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });

  it('compresses files and answers for a browser that accepts it', async () => {
    await writeFile(path.join(distDir, 'assets', 'large.js'), `console.log(${JSON.stringify('water '.repeat(2000))})`);
    const file = await t.app.inject({ url: '/assets/large.js', headers: { 'accept-encoding': 'gzip' } });
    expect(file.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(file.rawPayload).toString()).toContain('water water');
    const answer = await t.app.inject({ url: '/api/docs/json', headers: { 'accept-encoding': 'gzip' } });
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(answer.rawPayload).toString())).toMatchObject({ openapi: expect.any(String) });
  });

  it('serves a file built after the start, and answers a missing asset with 404, not the app', async () => {
    await writeFile(path.join(distDir, 'assets', 'rebuilt.js'), 'console.log("rebuilt")');
    const rebuilt = await t.app.inject({ url: '/assets/rebuilt.js' });
    expect(rebuilt.statusCode).toBe(200);
    expect(rebuilt.body).toContain('rebuilt');
    const gone = await t.app.inject({ url: '/assets/old-chunk.js' });
    expect(gone.statusCode).toBe(404);
    expect(gone.body).not.toContain('Pivot app');
  });

  it('keeps unknown API paths a JSON 404', async () => {
    const response = await t.app.inject({ url: '/api/nothing' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'not_found' });
  });
});

describe('without a built web app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('serves the API alone and answers other paths with 404', async () => {
    expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/login' })).statusCode).toBe(404);
  });
});
