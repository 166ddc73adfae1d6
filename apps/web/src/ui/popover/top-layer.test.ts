import { describe, expect, it } from 'vitest';
import { placePanel } from './top-layer';

const DESKTOP = { width: 1366, height: 768 };
const PHONE = { width: 360, height: 740 };
const CALENDAR = { width: 460, height: 380 };

describe('a panel placed by its button', () => {
  it('hangs under the button, right-aligned with it, where it fits', () => {
    expect(placePanel({ top: 100, bottom: 140, right: 900 }, CALENDAR, DESKTOP)).toEqual({ top: 148, left: 440 });
  });

  it('moves right to stay on the screen when the button is near the left edge', () => {
    expect(placePanel({ top: 100, bottom: 140, right: 200 }, CALENDAR, DESKTOP).left).toBe(8);
  });

  it('opens above the button when there is no room below, and above is asked for when it fits', () => {
    expect(placePanel({ top: 600, bottom: 640, right: 900 }, CALENDAR, DESKTOP)).toEqual({ top: 212, left: 440 });
    expect(placePanel({ top: 500, bottom: 540, right: 900 }, CALENDAR, DESKTOP, 'above').top).toBe(112);
  });

  it('on a phone with room neither below nor above, stays on the screen over its button', () => {
    const position = placePanel({ top: 300, bottom: 340, right: 340 }, { width: 344, height: 470 }, PHONE);
    expect(position.left).toBe(8);
    expect(position.top).toBeGreaterThanOrEqual(8);
    expect(position.top + 470).toBeLessThanOrEqual(PHONE.height - 8);
  });
});
