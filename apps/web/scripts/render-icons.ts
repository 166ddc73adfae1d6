/**
 * Renders the app's icons (public/icons/*.png, named in public/manifest.webmanifest and
 * index.html) from their SVG sources, with Debian's chromium through playwright-core (never a
 * downloaded browser). Run it again after changing an SVG, and commit the PNGs:
 *
 *   npx tsx apps/web/scripts/render-icons.ts
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ICONS = fileURLToPath(new URL('../public/icons/', import.meta.url));

/** Each PNG: its SVG source and its size in pixels. */
const RENDERS = [
  { png: 'pivot-192.png', svg: 'pivot.svg', size: 192 },
  { png: 'pivot-512.png', svg: 'pivot.svg', size: 512 },
  { png: 'pivot-maskable-192.png', svg: 'pivot-maskable.svg', size: 192 },
  { png: 'pivot-maskable-512.png', svg: 'pivot-maskable.svg', size: 512 },
  // iOS rounds the corners itself and shows transparency as black: the full-square one.
  { png: 'apple-touch-icon.png', svg: 'pivot-maskable.svg', size: 180 },
  // A notification's badge: only its shape counts.
  { png: 'pivot-badge-96.png', svg: 'pivot-badge.svg', size: 96 },
] as const;

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  for (const { png, svg, size } of RENDERS) {
    const source = await readFile(`${ICONS}${svg}`);
    await page.setViewportSize({ width: size, height: size });
    await page.setContent(
      `<body style="margin:0"><img width="${size}" height="${size}" src="data:image/svg+xml;base64,${source.toString('base64')}"></body>`,
    );
    await page.locator('img').evaluate((image: HTMLImageElement) => image.decode());
    await writeFile(`${ICONS}${png}`, await page.screenshot({ omitBackground: true, type: 'png' }));
    process.stdout.write(`${png}: ${size}×${size} from ${svg}\n`);
  }
} finally {
  await browser.close();
}
