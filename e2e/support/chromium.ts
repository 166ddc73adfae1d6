import { fileURLToPath } from 'node:url';

/** Debian's chromium: the browser tests and the web benchmarks never download one. */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/**
 * Debian's chromium as the browser tests and the web benchmarks launch it: through
 * chromium-without-omnibox-popups.sh, which leaves out the address bar's popups that headless
 * Chromium makes for every window. Without the background-networking flags this machine's closed
 * network refuses its connections many at a time.
 */
export const CHROMIUM_LAUNCH_OPTIONS = {
  executablePath: fileURLToPath(new URL('./chromium-without-omnibox-popups.sh', import.meta.url)),
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};
