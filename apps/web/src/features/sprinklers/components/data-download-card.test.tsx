import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { session } from '@/lib/session';
import { buildUser } from '@/test-factories';
import { catchSavedFiles, renderInApp } from '@/test-utils';
import { DataDownloadCard } from './data-download-card';

/** The calls the card sent, and the file's answer, held back until a test lets it go. */
let calls: string[];
let answerFile: () => void;
/** The names of the files handed to the browser to save. */
let saved: string[];

beforeEach(() => {
  calls = [];
  session.signIn(buildUser({ id: 1 }), 'access-1');
  vi.stubGlobal('fetch', async (url: string) => {
    const { pathname } = new URL(url, 'http://localhost');
    calls.push(pathname);
    await new Promise<void>((resolve) => (answerFile = resolve));
    return new Response('timestamp,angle\n', {
      headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="reports-7.csv"' },
    });
  });
  saved = catchSavedFiles();
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("a machine's data download", () => {
  it('prepares one file at a time: a second press while it is prepared asks for nothing more', async () => {
    const user = userEvent.setup();
    await renderInApp(<DataDownloadCard sprinklerId={7} />);
    const reports = screen.getByRole('button', { name: 'Download reports (CSV)' });

    await user.dblClick(reports);
    expect(reports).toHaveTextContent('Preparing the file…');
    expect(reports).toBeDisabled();
    expect(screen.getByRole('button', { name: 'As-applied map (GeoJSON)' })).toBeDisabled();
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatch(/\/7\//);

    answerFile();
    await waitFor(() => expect(saved).toEqual(['reports-7.csv']));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Download reports (CSV)' })).toBeEnabled());
    expect(calls).toHaveLength(1);
  });
});
