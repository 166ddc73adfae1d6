import type { SprinklerDetail } from '@pivot/contracts';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { buildSprinklerDetail } from '@/test-factories';
import { renderInApp } from '@/test-utils';
import { MachineProgram } from './machine-program';

// The sectors' colours follow the colour mode, whose store asks for prefers-color-scheme when loaded.
vi.hoisted(() =>
  vi.stubGlobal('matchMedia', (media: string) =>
    Object.assign(new EventTarget(), { matches: false, media, addListener: () => undefined }),
  ),
);

const UPLOADED = new Date(2026, 10, 23, 14, 5).getTime();

/** A machine running a program, as the server answers it. */
const machine = (): SprinklerDetail =>
  buildSprinklerDetail({
    online: true,
    reportedAt: UPLOADED,
    currentProgramTimestamp: UPLOADED,
    currentProgramData: { type: 'FeatureCollection', name: 'Lipiec', features: [], bbox: [17.19, 52.19, 17.21, 52.21] },
  });

describe("the machine's program", () => {
  it('gives its upload date as the machines list does, in Polish and in English', async () => {
    const view = await renderInApp(
      <MachineProgram sprinkler={machine()} state={{ kind: 'unknown' }} shownOnMap onShowOnMap={vi.fn()} />,
      { locale: 'pl', path: '/' },
    );
    expect(screen.getByText(/^Wgrany/)).toHaveTextContent('Wgrany 23.11.2026, 14:05');
    view.unmount();
    await renderInApp(
      <MachineProgram sprinkler={machine()} state={{ kind: 'unknown' }} shownOnMap onShowOnMap={vi.fn()} />,
      { locale: 'en', path: '/en' },
    );
    expect(screen.getByText(/^Uploaded/)).toHaveTextContent('Uploaded 23/11/2026, 14:05');
  });
});

describe("the machine's program, to a user who may only watch the machine", () => {
  it('shows the version from the machine but offers no saving it', async () => {
    const watched = { ...machine(), level: 'watch' as const };
    const view = await renderInApp(
      <MachineProgram sprinkler={watched} state={{ kind: 'unknown' }} shownOnMap onShowOnMap={vi.fn()} />,
      { locale: 'en', path: '/en' },
    );
    expect(screen.getByText('Lipiec')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /save/i })).not.toBeInTheDocument();
    view.unmount();
    await renderInApp(
      <MachineProgram sprinkler={machine()} state={{ kind: 'unknown' }} shownOnMap onShowOnMap={vi.fn()} />,
      { locale: 'en', path: '/en' },
    );
    expect(screen.getByRole('button', { name: /save/i })).toBeInTheDocument();
  });
});
