import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { type ServerProcess, startServer } from '../support/server-process';
import { ADMIN, webAppFromEnvironment } from './support/environment';
import { expect, signIn, test } from './support/fixtures';

/**
 * Issue 11: the app can be installed (its manifest and icons), starts without a network (its
 * service worker keeps the build), never keeps an answer of the API, and a new version takes
 * over cleanly. The other browser tests block service workers; these let the app's run.
 */
test.use({ serviceWorkers: 'allow' });

type Manifest = {
  id: string;
  name: string;
  short_name: string;
  lang: string;
  start_url: string;
  scope: string;
  display: string;
  theme_color: string;
  background_color: string;
  icons: { src: string; sizes: string; type: string; purpose?: string }[];
};

/**
 * How long a step of the worker's own may take: installing a version fetches and keeps the whole
 * build, and a push starts the worker; beside the other suites on two cores that passes 10 s.
 */
const WORKER_TIMEOUT_MS = 30_000;

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(bytes: Buffer): string {
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
}

/** The build's version and files, as the worker the server serves lists them. */
async function workerBuild(page: Page): Promise<{ version: string; files: string[] }> {
  const source = await (await page.request.get('/sw.js')).text();
  const match = /^const BUILD = (\{.*\});$/m.exec(source);
  expect(match, 'sw.js starts with the build it keeps').not.toBeNull();
  return JSON.parse(match![1]!) as { version: string; files: string[] };
}

/** Every cache of the page's origin, with the paths it holds. */
function cachedPaths(page: Page): Promise<Record<string, string[]>> {
  return page.evaluate(async () => {
    const result: Record<string, string[]> = {};
    for (const name of await caches.keys()) {
      const requests = await (await caches.open(name)).keys();
      result[name] = requests.map((request) => new URL(request.url).pathname).sort();
    }
    return result;
  });
}

/** Waits until the app's worker is active, then reloads: the page is now under its control. */
async function loadUnderWorker(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.reload();
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toMatch(/\/sw\.js$/);
}

test('the manifest is linked and valid, with icons of every size it names, and Chromium finds the app installable', async ({
  page,
  context,
}) => {
  const csp: string[] = [];
  page.on('console', (message) => {
    if (/Content.Security.Policy/i.test(message.text())) csp.push(message.text());
  });
  const answer = await page.goto('/login');
  const policy = (await answer!.allHeaders())['content-security-policy'];
  expect(policy).toContain("worker-src 'self'");
  expect(policy).toContain("manifest-src 'self'");

  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBe('/manifest.webmanifest');
  const response = await page.request.get(href!);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toContain('application/manifest+json');
  const manifest = (await response.json()) as Manifest;
  expect(manifest).toMatchObject({
    id: '/',
    name: 'Pivot',
    short_name: 'Pivot',
    lang: 'pl',
    start_url: '/',
    scope: '/',
    display: 'standalone',
  });
  // Its colours are the app's: the brand green of the icon and buttons, the page's background.
  const colours = await page.evaluate(() => {
    const style = getComputedStyle(document.documentElement);
    return {
      primary: style.getPropertyValue('--primary').trim(),
      canvas: style.getPropertyValue('--canvas').trim(),
      meta: document.querySelector('meta[name="theme-color"]')?.getAttribute('content'),
    };
  });
  expect(manifest.theme_color).toBe(colours.primary);
  expect(manifest.theme_color).toBe(colours.meta);
  expect(manifest.background_color).toBe(colours.canvas);

  const pngs = manifest.icons.filter((icon) => icon.type === 'image/png');
  const offered = pngs.map((icon) => `${icon.sizes} ${icon.purpose ?? 'any'}`);
  expect(offered).toEqual(expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']));
  for (const icon of manifest.icons) {
    const file = await page.request.get(icon.src);
    expect(file.status(), icon.src).toBe(200);
    expect(file.headers()['content-type'], icon.src).toContain(icon.type);
    if (icon.type === 'image/png') expect(pngSize(await file.body()), icon.src).toBe(icon.sizes);
  }

  // Chromium's own reading of the manifest, and its installability check once the worker runs.
  const cdp = await context.newCDPSession(page);
  const read = await cdp.send('Page.getAppManifest');
  expect(read.errors).toEqual([]);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  // Every Playwright context is incognito, where Chromium installs nothing; nothing else may be missing.
  expect(installabilityErrors.filter((error) => error.errorId !== 'in-incognito')).toEqual([]);
  expect(csp).toEqual([]);
});

test('the worker controls the page after a reload, keeps the build and no answer of the API, and the app starts offline', async ({
  page,
  context,
  admin,
}) => {
  const apiFromWorker: string[] = [];
  let buildFilesFromWorker = 0;
  let liveStreams = 0;
  page.on('response', (response) => {
    const { pathname } = new URL(response.url());
    if (pathname.startsWith('/assets/') && response.fromServiceWorker()) buildFilesFromWorker += 1;
    if (!pathname.startsWith('/api/')) return;
    if (response.fromServiceWorker()) apiFromWorker.push(pathname);
    if (pathname.endsWith('/events')) liveStreams += 1;
  });

  await loadUnderWorker(page, '/login');
  const build = await workerBuild(page);
  expect(build.files).toEqual(expect.arrayContaining(['/index.html', '/manifest.webmanifest', '/brands/pivot.svg']));
  expect(build.files.some((file) => /^\/assets\/index-[\w-]+\.js$/.test(file))).toBe(true);

  // The app at work: signed in, the machine list, a machine's page with its live stream.
  const machines = await admin.call('GET', '/api/sprinkler/');
  const [machine] = machines.body as { id: number }[];
  expect(machine, 'the demo fleet has machines').toBeDefined();
  await signIn(page, ADMIN, '/sprinklers');
  await expect(page.getByRole('heading', { level: 1, name: 'Maszyny' })).toBeVisible();
  await page.goto(`/sprinklers/${machine!.id}`);
  await expect.poll(() => liveStreams).toBeGreaterThan(0);
  // The build's files now come from the worker; the API's answers and the live stream never do.
  expect(buildFilesFromWorker).toBeGreaterThan(0);

  const cached = await cachedPaths(page);
  expect(Object.keys(cached)).toEqual([`pivot-app-${build.version}`]);
  const paths = Object.values(cached).flat();
  expect(paths.filter((cachedPath) => cachedPath.startsWith('/api'))).toEqual([]);
  // Exactly the build, nothing the app asked for while it ran.
  expect(paths).toEqual([...build.files].sort());
  expect(apiFromWorker).toEqual([]);

  await context.setOffline(true);
  await page.reload();
  // The kept page and code start the app; without its server it asks the user to sign in.
  await expect(page.getByRole('link', { name: 'Pivot – strona główna' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Zaloguj się' })).toBeVisible();
  await context.setOffline(false);
});

test('a Web Push message is shown as a notification that opens a page of the app', async ({
  page,
  context,
  baseURL,
}) => {
  await context.grantPermissions(['notifications'], { origin: baseURL! });
  await page.goto('/login');
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  const cdp = await context.newCDPSession(page);
  const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
  cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => registrations.push(...event.registrations));
  await cdp.send('ServiceWorker.enable');
  await expect.poll(() => registrations.filter((registration) => !registration.isDeleted).length).toBe(1);
  const { registrationId } = registrations.find((registration) => !registration.isDeleted)!;
  const push = (data: string) =>
    cdp.send('ServiceWorker.deliverPushMessage', { origin: new URL(baseURL!).origin, registrationId, data });
  const shown = () =>
    page.evaluate(async () => {
      const notifications = await (await navigator.serviceWorker.ready).getNotifications();
      // Chromium's Notification has a badge, which TypeScript's DOM types leave out.
      return notifications.map((notification) => {
        const { title, body, tag, data, icon, badge } = notification as Notification & { badge: string };
        return { title, body, tag, data, icon, badge };
      });
    });

  await push(
    JSON.stringify({
      title: 'Pivot 3: alarm',
      body: 'Maszyna zgłasza alarm',
      url: '/sprinklers/3',
      tag: 'pivot-3-alarm',
    }),
  );
  // Chromium starts the worker for the push and writes the notification down on its own time,
  // which on a loaded machine takes more than an assertion's usual 10 s.
  await expect.poll(shown, { timeout: WORKER_TIMEOUT_MS }).toEqual([
    {
      title: 'Pivot 3: alarm',
      body: 'Maszyna zgłasza alarm',
      tag: 'pivot-3-alarm',
      data: { url: `${baseURL}/sprinklers/3` },
      icon: `${baseURL}/icons/pivot-192.png`,
      badge: `${baseURL}/icons/pivot-badge-96.png`,
    },
  ]);
  // The same tag replaces it; a page of another site is never opened from a notification.
  await push(
    JSON.stringify({ title: 'Pivot 3', body: 'Alarm ustał', url: 'https://elsewhere.example/', tag: 'pivot-3-alarm' }),
  );
  await expect
    .poll(shown, { timeout: WORKER_TIMEOUT_MS })
    .toEqual([expect.objectContaining({ title: 'Pivot 3', body: 'Alarm ustał', data: { url: `${baseURL}/` } })]);
});

test.describe('on a server of its own', () => {
  let server: ServerProcess | undefined;
  let webDist: string;

  test.beforeAll(async () => {
    // A copy of the build, which the test changes as a deploy would.
    webDist = await mkdtemp(path.join(os.tmpdir(), 'pivot-e2e-pwa-'));
    await cp(webAppFromEnvironment(), webDist, { recursive: true });
    server = await startServer({
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      DEMO_FLEET: 'false',
      WEB_DIST_DIR: webDist,
    });
  });
  test.afterAll(async () => {
    await server?.stop();
    await rm(webDist, { recursive: true, force: true });
  });

  test('a new version takes over and drops the old one, and the app starts with the server stopped', async ({
    page,
  }) => {
    const base = server!.baseUrl;
    await loadUnderWorker(page, `${base}/login`);
    const before = await workerBuild(page);
    expect(Object.keys(await cachedPaths(page))).toEqual([`pivot-app-${before.version}`]);

    // A deploy: a changed page, and so a worker of another version. The build's compressed
    // copies of a file (apps/web/precompress/) are the old version's: they go with it.
    const next = `${before.version}-next`;
    const deploy = async (file: string, change: (content: string) => string) => {
      await writeFile(file, change(await readFile(file, 'utf8')));
      await Promise.all([rm(`${file}.br`, { force: true }), rm(`${file}.gz`, { force: true })]);
    };
    await deploy(path.join(webDist, 'index.html'), (page) =>
      page.replace('<head>', '<head>\n    <meta name="pivot-build" content="next" />'),
    );
    await deploy(path.join(webDist, 'sw.js'), (worker) => worker.replace(before.version, next));

    await page.evaluate(async () => {
      const page = window as Window & { workerChanged?: boolean };
      page.workerChanged = false;
      navigator.serviceWorker.addEventListener('controllerchange', () => (page.workerChanged = true));
      await (await navigator.serviceWorker.getRegistration())!.update();
    });
    // The new worker takes the open page over at once, and only its version stays.
    await expect
      .poll(() => page.evaluate(() => (window as Window & { workerChanged?: boolean }).workerChanged), {
        timeout: WORKER_TIMEOUT_MS,
      })
      .toBe(true);
    await expect
      .poll(async () => Object.keys(await cachedPaths(page)), { timeout: WORKER_TIMEOUT_MS })
      .toEqual([`pivot-app-${next}`]);

    await server!.terminate();
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Zaloguj się' })).toBeVisible();
    // The page kept is the new version's.
    await expect(page.locator('meta[name="pivot-build"]')).toHaveAttribute('content', 'next');
  });
});
