import { type BackupStatus, BackupStatusSchema } from '@pivot/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Locale } from '@/config/locales';
import { queryClient } from '@/lib/query-client';
import { session } from '@/lib/session';
import { buildUser } from '@/test-factories';
import { catchSavedFiles, renderInApp } from '@/test-utils';
import { AdminBackupsRoute } from './admin';

const ADMIN = buildUser({ id: 1, first_name: 'Ada', last_name: 'Admin', email: 'admin@farm.pl', admin: true });
const FILE_NAME = 'pivot-backup-2026-11-27T10-00-00Z.pivotbackup';

let status: BackupStatus;
let calls: string[];
/** The names of the files handed to the browser to save. */
let saved: string[];

beforeEach(() => {
  status = { lastBackup: null, warning: null, encrypted: true };
  calls = [];
  session.signIn(ADMIN, 'access-1');
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const { pathname } = new URL(url, 'http://localhost');
    calls.push(`${init.method ?? 'GET'} ${pathname}`);
    if (pathname === '/api/admin/backup/status/') {
      return Response.json(BackupStatusSchema.parse(status));
    }
    if (pathname === '/api/admin/backup/') {
      const bytes = new Uint8Array(1_234_567);
      status = {
        ...status,
        lastBackup: { takenAt: Date.UTC(2026, 10, 27, 10), sizeBytes: bytes.length },
        warning: null,
      };
      return new Response(bytes, {
        headers: {
          'content-type': 'application/octet-stream',
          'content-disposition': `attachment; filename="${FILE_NAME}"`,
        },
      });
    }
    return Response.json({ code: 'not_found', message: 'no such call' }, { status: 404 });
  });
  saved = catchSavedFiles();
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  queryClient.clear();
});

async function renderScreen(locale: Locale = 'en') {
  const user = userEvent.setup();
  await renderInApp(
    <QueryClientProvider client={queryClient}>
      <AdminBackupsRoute />
    </QueryClientProvider>,
    { locale },
  );
  return user;
}

describe('the admin backups screen', () => {
  it('says no backup was taken yet, downloads one, then shows its time and size', async () => {
    const user = await renderScreen();
    expect(await screen.findByText('No backup taken yet')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Download backup' }));
    await waitFor(() => expect(saved).toEqual([FILE_NAME]));
    expect(calls).toContain('GET /api/admin/backup/');
    expect(await screen.findByText('1.2 MB')).toBeInTheDocument();
    expect(screen.getByText('Taken').nextElementSibling?.querySelector('time')).toHaveAttribute(
      'datetime',
      '2026-11-27T10:00:00.000Z',
    );
  });

  it('speaks Polish', async () => {
    status = { lastBackup: { takenAt: Date.UTC(2026, 10, 27, 10), sizeBytes: 2_500 }, warning: null, encrypted: true };
    await renderScreen('pl');
    expect(await screen.findByText('2,5 kB')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Pobierz kopię zapasową' })).toBeInTheDocument();
  });

  it('warns of a failed scheduled backup until the next one succeeds', async () => {
    status = {
      lastBackup: { takenAt: Date.UTC(2026, 10, 26, 10), sizeBytes: 2_500 },
      warning: { kind: 'failed', error: 'EACCES: permission denied', at: Date.UTC(2026, 10, 27, 10) },
      encrypted: true,
    };
    const user = await renderScreen();
    expect(await screen.findByRole('alert')).toHaveTextContent('The last backup failed: EACCES: permission denied');

    await user.click(screen.getByRole('button', { name: 'Download backup' }));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
  });

  it('warns of an overdue backup, in Polish too', async () => {
    status = {
      lastBackup: { takenAt: Date.UTC(2026, 10, 22, 10), sizeBytes: 2_500 },
      warning: { kind: 'overdue', days: 5 },
      encrypted: true,
    };
    await renderScreen('pl');
    expect(await screen.findByRole('alert')).toHaveTextContent('Brak kopii zapasowej od 5 dni');
  });

  it('says how many days no backup was taken', async () => {
    status = {
      lastBackup: { takenAt: Date.UTC(2026, 10, 24, 10), sizeBytes: 2_500 },
      warning: { kind: 'overdue', days: 3 },
      encrypted: true,
    };
    await renderScreen();
    expect(await screen.findByRole('alert')).toHaveTextContent('No backup for 3 days');
  });

  it('says plainly when the backups hold the server’s secrets in the clear', async () => {
    status = { lastBackup: null, warning: null, encrypted: false };
    await renderScreen();
    expect(
      await screen.findByText(/These backups are not encrypted: each holds the server's secrets in the clear/),
    ).toBeInTheDocument();
  });

  it('says so in Polish too', async () => {
    status = { lastBackup: null, warning: null, encrypted: false };
    await renderScreen('pl');
    expect(
      await screen.findByText(/Te kopie nie są zaszyfrowane: każda zawiera jawne sekrety serwera/),
    ).toBeInTheDocument();
  });

  it('says nothing of secrets when the backups are encrypted', async () => {
    await renderScreen();
    expect(await screen.findByText('No backup taken yet')).toBeInTheDocument();
    expect(screen.queryByText(/not encrypted/)).not.toBeInTheDocument();
  });
});
