/**
 * The web app's service worker, built to /sw.js by vite-plugin.ts, which puts the build's file
 * list and version in front of it as `BUILD`. It keeps one version of the app in a cache of its
 * own, so the installed app starts without a network, and shows Web Push notifications.
 *
 * - Install: every file of the build (index.html, /assets/*, the public files) goes into the
 *   cache `pivot-app-<version>`. A hashed file an earlier version already keeps is copied from
 *   its cache, so an update downloads only what changed. The new worker then takes over at once.
 * - Activate: the caches of other versions are deleted, and open pages are taken over.
 * - Fetch: a page (a navigation) comes from the network, so an online user always gets the newest
 *   app; without an answer in 4 s, or with none at all (offline, server stopped, a proxy's 5xx),
 *   the kept index.html, whose files are all kept with it. The build's files come from the cache.
 *   Nothing else is touched: no answer of the API (/api/…), no live stream, no other host (map
 *   tiles) ever reaches the cache.
 * - Push: a JSON payload {title, body, url, tag} (docs/web-app.md) is shown as a notification;
 *   a click focuses the app's window at `url`, or opens one.
 */

/** Written by the build (vite-plugin.ts): this version's name and the paths of all its files. */
declare const BUILD: { version: string; files: string[] };

const worker = self as unknown as ServiceWorkerGlobalScope;

const CACHE_PREFIX = 'pivot-app-';
const CACHE = `${CACHE_PREFIX}${BUILD.version}`;
const PAGE = '/index.html';
const BUILD_FILES = new Set(BUILD.files);
/** How long a page waits for the network before the kept one is shown (a field with a poor signal). */
const NETWORK_TIMEOUT_MS = 4000;
/** Files named after a hash of their content: the same name is the same file in every version. */
const isHashed = (path: string) => path.startsWith('/assets/');
const isApi = (path: string) => path === '/api' || path.startsWith('/api/');

async function keepBuild(): Promise<void> {
  const cache = await caches.open(CACHE);
  await Promise.all(
    BUILD.files.map(async (path) => {
      const kept = isHashed(path) ? await caches.match(path) : undefined;
      if (kept) return cache.put(path, kept);
      // The page and the public files are asked for afresh; a hashed file may come from the HTTP cache.
      const response = await fetch(path, { cache: isHashed(path) ? 'default' : 'no-cache' });
      if (!response.ok) throw new Error(`${path} answered ${response.status}`);
      return cache.put(path, response);
    }),
  );
}

async function dropOtherVersions(): Promise<void> {
  const names = await caches.keys();
  await Promise.all(
    names.filter((name) => name.startsWith(CACHE_PREFIX) && name !== CACHE).map((name) => caches.delete(name)),
  );
}

const keptPage = async () => (await caches.open(CACHE)).match(PAGE);

/** The network's page, or the kept one when the network fails, errs or is slow. */
async function page(request: Request): Promise<Response> {
  const network = fetch(request);
  const keptOrNetwork = async () => (await keptPage()) ?? network;
  const slow = new Promise<Response>((resolve) => {
    setTimeout(() => resolve(keptOrNetwork()), NETWORK_TIMEOUT_MS);
  });
  try {
    const response = await Promise.race([network, slow]);
    return response.status >= 500 ? ((await keptPage()) ?? response) : response;
  } catch {
    const kept = await keptPage();
    if (kept) return kept;
    throw new Error('offline, and no page is kept yet');
  }
}

async function buildFile(request: Request, path: string): Promise<Response> {
  return (await (await caches.open(CACHE)).match(path)) ?? fetch(request);
}

worker.addEventListener('install', (event) => {
  event.waitUntil(keepBuild().then(() => worker.skipWaiting()));
});

worker.addEventListener('activate', (event) => {
  event.waitUntil(dropOtherVersions().then(() => worker.clients.claim()));
});

worker.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== worker.location.origin || isApi(url.pathname)) return;
  if (request.mode === 'navigate') event.respondWith(page(request));
  else if (BUILD_FILES.has(url.pathname)) event.respondWith(buildFile(request, url.pathname));
});

/** What the server's Web Push messages carry: the contracts' PushPayload (docs/web-app.md). */
type PushPayload = { title: string; body: string; url: string; tag: string };

/** Only the app's own pages are opened from a notification; anything else opens the start page. */
function appUrl(value: unknown): string {
  try {
    const url = new URL(typeof value === 'string' ? value : '/', worker.location.origin);
    return url.origin === worker.location.origin ? url.href : worker.location.origin + '/';
  } catch {
    return worker.location.origin + '/';
  }
}

function readPayload(data: PushMessageData | null): PushPayload {
  let parsed: unknown = null;
  try {
    parsed = data?.json();
  } catch {
    // Not JSON: its text is the notification's body.
  }
  const fields = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  const text = (name: string) => (typeof fields[name] === 'string' ? (fields[name] as string) : '');
  return {
    title: text('title') || 'Pivot',
    body: text('body') || (parsed === null ? (data?.text() ?? '') : ''),
    url: appUrl(text('url') || '/'),
    tag: text('tag'),
  };
}

worker.addEventListener('push', (event) => {
  const payload = readPayload(event.data);
  // Chrome's `renotify` (not in TypeScript's types): a newer alert under the same tag alerts again.
  const options: NotificationOptions & { renotify?: boolean } = {
    body: payload.body,
    icon: '/icons/pivot-192.png',
    badge: '/icons/pivot-badge-96.png',
    data: { url: payload.url },
    ...(payload.tag ? { tag: payload.tag, renotify: true } : {}),
  };
  event.waitUntil(worker.registration.showNotification(payload.title, options));
});

/** Focuses a window of the app already at `url`; else shows it in a window of the app, or a new one. */
async function showPage(url: string): Promise<void> {
  const windows = await worker.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const there = windows.find((client) => client.url === url);
  if (there) {
    await there.focus();
    return;
  }
  for (const client of windows) {
    // Only a window this worker controls can be navigated.
    const moved = await client.navigate(url).catch(() => null);
    if (moved) {
      await moved.focus();
      return;
    }
  }
  await worker.clients.openWindow(url);
}

worker.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = event.notification.data as { url?: unknown } | null;
  event.waitUntil(showPage(appUrl(data?.url)));
});
