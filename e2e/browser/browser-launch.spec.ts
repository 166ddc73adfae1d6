import { expect, test } from './support/fixtures';

// The browser every test runs in, as support/chromium.ts launches it (through
// chromium-without-omnibox-popups.sh).

test("the browser makes no address-bar popups, and Playwright's own features stay turned off with them", async ({
  browser,
}) => {
  const page = await browser.newPage();
  await page.goto('chrome://version');
  const commandLine = (await page.locator('#command_line').textContent()) ?? '';
  const disabledLists = commandLine.match(/--disable-features=\S+/g) ?? [];
  // Chromium reads only the last list: one list, ours and Playwright's (PaintHolding is one of its).
  expect(disabledLists).toHaveLength(1);
  expect(disabledLists[0]!.split('=')[1]!.split(',')).toEqual(
    expect.arrayContaining(['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'PaintHolding']),
  );

  const cdp = await browser.newBrowserCDPSession();
  const { targetInfos } = await cdp.send('Target.getTargets');
  expect(targetInfos.map((target) => target.url).filter((url) => url.startsWith('chrome://omnibox-popup'))).toEqual([]);
  await page.close();
});
