/**
 * Debian's chromium, never a downloaded browser, as the browser tests and the web benchmarks
 * launch it. Without the background-networking flags this machine's closed network refuses its
 * connections many at a time.
 */
export const CHROMIUM_LAUNCH_OPTIONS = {
  executablePath: '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};
