import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync, gunzipSync } from 'node:zlib';
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
    await mkdir(path.join(distDir, 'brands'));
    await writeFile(path.join(distDir, 'brands', 'pivot.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
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

  it.each([
    ['an English browser', { 'accept-language': 'en-GB,en;q=0.9,pl;q=0.5' }, '/login', 'Pivot login, in English'],
    ['a Polish browser', { 'accept-language': 'pl-PL,pl;q=0.9' }, '/login', 'Pivot login, prerendered'],
    ['a browser of neither', { 'accept-language': 'de-DE' }, '/login', 'Pivot login, prerendered'],
    [
      'the cookie before the browser',
      { 'accept-language': 'en', cookie: 'locale=pl' },
      '/login',
      'Pivot login, prerendered',
    ],
    ['the cookie alone', { cookie: 'locale=en' }, '/login', 'Pivot login, in English'],
    ['an address with its language', { 'accept-language': 'pl' }, '/en/login', 'Pivot login, in English'],
    ['a page not rendered in English', { 'accept-language': 'en' }, '/forgot', 'Pivot app'],
  ])("answers an address without a language in the visitor's: %s", async (_visitor, headers, url, title) => {
    const response = await t.app.inject({ url, headers });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body).toContain(title);
    expect(response.headers.vary).toContain('Accept-Language');
    expect(response.headers.vary).toContain('Cookie');
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
      '/brands/pivot.svg',
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

  it("sends the build's own compressed copy of a file, in an encoding the browser accepts", async () => {
    // The copies say which they are, so an answer compressed on the fly would show.
    const script = 'console.log("the file")';
    await writeFile(path.join(distDir, 'assets', 'built-ABCDEFGH.js'), script);
    await writeFile(path.join(distDir, 'assets', 'built-ABCDEFGH.js.br'), brotliCompressSync(`${script} // br`));
    await writeFile(path.join(distDir, 'assets', 'built-ABCDEFGH.js.gz'), gzipSync(`${script} // gz`));
    const ask = (encodings: string) =>
      t.app.inject({ url: '/assets/built-ABCDEFGH.js', headers: { 'accept-encoding': encodings } });

    const br = await ask('gzip, deflate, br, zstd');
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(`${script} // br`);
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toContain('accept-encoding');
    const gz = await ask('gzip, deflate');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(`${script} // gz`);
    const plain = await ask('identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('keeps the language in the Vary of a page sent compressed', async () => {
    await writeFile(path.join(distDir, 'pages', 'login.html.br'), brotliCompressSync('<title>Pivot login, br</title>'));
    const page = await t.app.inject({ url: '/login', headers: { 'accept-encoding': 'br' } });
    expect(page.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(page.rawPayload).toString()).toContain('Pivot login, br');
    expect(String(page.headers.vary).toLowerCase().split(/,\s*/)).toEqual(
      expect.arrayContaining(['cookie', 'accept-language', 'accept-encoding']),
    );
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
