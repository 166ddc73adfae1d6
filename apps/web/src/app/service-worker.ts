/**
 * Registers the app's service worker (service-worker/service-worker.ts, built to /sw.js) in a
 * production build, once the page has loaded, so that it fetches the app's files for offline
 * starts without slowing the first one down. Not in development (Vite's server has no sw.js) nor
 * in tests. Browsers offer service workers only to secure pages (https, or localhost): over plain
 * http on a farm's network the app runs without one.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const register = () => {
    // A browser that refuses (a private window, a policy) leaves the app as it is: online only.
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
