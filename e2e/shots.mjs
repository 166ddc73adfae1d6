import { chromium } from '@playwright/test';
const base = 'http://localhost:3300';
const out = process.argv[2] ?? '/tmp/attack/shots';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
for (const language of ['pl', 'en']) {
  for (const colorScheme of ['light', 'dark']) {
    const context = await browser.newContext({ baseURL: base, colorScheme, viewport: { width: 1280, height: 900 }, locale: language === 'pl' ? 'pl-PL' : 'en-US' });
    const page = await context.newPage();
    await page.request.get('/api/health');
    const csrf = () => context.cookies().then((c) => c.find((x) => x.name === 'csrf_token')?.value ?? '');
    const login = await page.request.post('/api/user/login/', { data: { email: 'demo@pivot.local', password: 'Demo-Pass-123!', remember: true }, headers: { 'X-CSRF-Token': await csrf() } });
    const { access: accessToken } = await login.json();
    await page.request.patch('/api/user/', { data: { language }, headers: { 'X-CSRF-Token': await csrf(), authorization: `Bearer ${accessToken}` } });
    await page.goto('/sprinklers');
    await page.waitForTimeout(4000);
    await page.screenshot({ path: `${out}-list-${language}-${colorScheme}.png`, fullPage: true });
    const list = await (await page.request.get('/api/sprinkler/', { headers: { authorization: `Bearer ${accessToken}` } })).json();
    await page.goto(`/sprinklers/${list[0].id}`);
    await page.waitForTimeout(5000);
    const box = page.getByRole('checkbox', { name: /Woda w glebie|Soil water/ });
    if (await box.count()) await box.check();
    await page.waitForTimeout(2500);
    await page.screenshot({ path: `${out}-machine-${language}-${colorScheme}.png`, fullPage: true });
    if (language === 'en' && colorScheme === 'light') {
      await context.setOffline(true);
      await page.waitForTimeout(5000);
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: `${out}-offline-phone-${language}.png`, fullPage: false });
      await context.setOffline(false);
    }
    await context.close();
  }
}
await browser.close();
