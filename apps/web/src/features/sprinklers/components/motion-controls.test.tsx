import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { session } from '@/lib/session';
import { buildSprinklerListItem, buildUser } from '@/test-factories';
import { renderInApp } from '@/test-utils';
import { dialogStore } from '@/ui/dialog/dialogs';
import { MotionControls } from './motion-controls';

/** The calls the buttons sent. */
let calls: string[];

beforeEach(() => {
  calls = [];
  session.signIn(buildUser({ id: 1 }), 'access-1');
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    calls.push(`${init.method ?? 'GET'} ${new URL(url, 'http://localhost').pathname}`);
    return Response.json({ code: 'not_found', message: 'no such machine' }, { status: 404 });
  });
});

afterEach(() => {
  for (const dialog of dialogStore.get()) dialog.settle(false);
  vi.unstubAllGlobals();
});

const renderControls = () =>
  renderInApp(
    <MotionControls
      sprinklerId={7}
      name="North field"
      machine={buildSprinklerListItem({ online: true, reportedAt: Date.now(), status: 'stop', flow: 0 })}
    />,
  );

describe("a machine's motion buttons", () => {
  it('ask once for a double click: one question, and nothing sent before it is answered', async () => {
    const user = userEvent.setup();
    await renderControls();

    await user.dblClick(screen.getByRole('button', { name: 'Forward' }));
    await waitFor(() => expect(dialogStore.get()).toHaveLength(1));
    expect(dialogStore.get()[0]!.title).toMatch(/North field|forward/i);
    expect(calls).toEqual([]);

    dialogStore.get()[0]!.settle(false);
    await waitFor(() => expect(dialogStore.get()).toHaveLength(0));
    // Answered: the buttons ask again.
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(dialogStore.get()).toHaveLength(1));
    expect(calls).toEqual([]);
  });
});
