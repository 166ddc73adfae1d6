import type { BrowserContextOptions, Page } from 'playwright-core';

/**
 * Chromium's mobile emulation for the web benchmarks' `--phone` runs (issue 24): a phone-sized
 * touch screen, the main thread 4× slower, and every request 150 ms away over 1.6 Mbit/s down
 * (750 kbit/s up), as a modest phone on a farm's mobile signal.
 */
export const PHONE = {
  cpuSlowdown: 4,
  latencyMs: 150,
  downloadBitsPerSecond: 1_600_000,
  uploadBitsPerSecond: 750_000,
} as const;

export const PHONE_DESCRIPTION = `412×915 touch, CPU ×${PHONE.cpuSlowdown} slower, ${PHONE.latencyMs} ms round trip, ${PHONE.downloadBitsPerSecond / 1e6} Mbit/s down`;

/** The browser context's screen for a phone, or for a desktop (1280×800). */
export function screenOf(phone: boolean): BrowserContextOptions {
  return phone
    ? { viewport: { width: 412, height: 915 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }
    : { viewport: { width: 1280, height: 800 } };
}

/** Slows the page's CPU and network as a phone's (Chrome DevTools Protocol), before it navigates. */
export async function emulatePhone(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: PHONE.cpuSlowdown });
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: PHONE.latencyMs,
    downloadThroughput: PHONE.downloadBitsPerSecond / 8,
    uploadThroughput: PHONE.uploadBitsPerSecond / 8,
  });
}
