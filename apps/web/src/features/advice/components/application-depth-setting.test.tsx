import { type ApplicationDepth, ApplicationDepthBodySchema, ApplicationDepthSchema } from '@pivot/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Locale } from '@/config/locales';
import { queryClient } from '@/lib/query-client';
import { session } from '@/lib/session';
import { buildUser } from '@/test-factories';
import { renderInApp } from '@/test-utils';
import { ApplicationDepthSetting } from './application-depth-setting';

const PATH = '/api/sprinkler/7/application-depth/';

/** The machine's depth at 100 % as the server keeps it; requests and answers go through the contracts' schemas. */
let stored: ApplicationDepth;
let patches: unknown[];

beforeEach(() => {
  stored = {
    setting: null,
    learned: 5.09,
    learnedFrom: 360,
    depthAtFullSpeed: 5.09,
    hoursPerCircleSetting: null,
    hoursPerCircleLearned: 5,
    hoursPerCircle: 5,
  };
  patches = [];
  document.cookie = 'csrf_token=token-1; path=/';
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const { pathname } = new URL(url, 'http://localhost');
    const method = init.method ?? 'GET';
    if (pathname === PATH && method === 'PATCH') {
      const body = ApplicationDepthBodySchema.parse(JSON.parse(init.body as string));
      patches.push(body);
      const hours = body.hoursPerCircle === undefined ? stored.hoursPerCircleSetting : body.hoursPerCircle;
      stored = {
        ...stored,
        setting: body.depthAtFullSpeed,
        depthAtFullSpeed: body.depthAtFullSpeed ?? stored.learned,
        hoursPerCircleSetting: hours,
        hoursPerCircle: hours ?? stored.hoursPerCircleLearned,
      };
    } else if (pathname !== PATH || method !== 'GET') {
      return new Response(JSON.stringify({ code: 'not_found', message: 'no such call' }), { status: 404 });
    }
    return new Response(JSON.stringify(ApplicationDepthSchema.parse(stored)), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

async function renderSetting(admin: boolean, locale: Locale = 'en') {
  session.signIn(buildUser({ admin }), 'access-1');
  return renderInApp(
    <QueryClientProvider client={queryClient}>
      <ApplicationDepthSetting sprinklerId={7} />
    </QueryClientProvider>,
    { locale },
  );
}

describe('the pace at 100 % setting', () => {
  it('lets an administrator type the depth in, and empty it to learn from the reports again', async () => {
    const user = userEvent.setup();
    await renderSetting(true);
    const form = await screen.findByRole('form', { name: 'Pace at 100 % (administrators)' });
    expect(form).toHaveTextContent('From the machine’s reports: 5.09 mm, a circle in 5 h (360 pairs of reports).');
    const field = within(form).getByLabelText('Depth at 100 %, mm');
    expect(field).toHaveValue('');

    await user.type(field, '0');
    await user.click(within(form).getByRole('button', { name: 'Save pace' }));
    expect(within(form).getByText('Enter a depth above 0 and at most 100 mm, or leave it empty')).toBeVisible();
    expect(patches).toEqual([]);

    await user.clear(field);
    await user.type(field, '4.5');
    await user.click(within(form).getByRole('button', { name: 'Save pace' }));
    await vi.waitFor(() => expect(patches).toEqual([{ depthAtFullSpeed: 4.5, hoursPerCircle: null }]));
    expect(await screen.findByDisplayValue('4.5')).toBeVisible();

    await user.clear(screen.getByLabelText('Depth at 100 %, mm'));
    await user.click(screen.getByRole('button', { name: 'Save pace' }));
    await vi.waitFor(() =>
      expect(patches).toEqual([
        { depthAtFullSpeed: 4.5, hoursPerCircle: null },
        { depthAtFullSpeed: null, hoursPerCircle: null },
      ]),
    );
  });

  it('takes the hours a circle at 100 % for a machine that has not watered yet, and refuses what cannot be one', async () => {
    stored = {
      ...stored,
      learned: null,
      learnedFrom: 0,
      depthAtFullSpeed: null,
      hoursPerCircleLearned: null,
      hoursPerCircle: null,
    };
    const user = userEvent.setup();
    await renderSetting(true);
    const form = await screen.findByRole('form', { name: 'Pace at 100 % (administrators)' });
    const hours = within(form).getByLabelText('A circle at 100 %, hours');
    await user.type(within(form).getByLabelText('Depth at 100 %, mm'), '5');
    await user.type(hours, '250');
    await user.click(within(form).getByRole('button', { name: 'Save pace' }));
    expect(within(form).getByText('Enter hours above 0 and at most 200, or leave it empty')).toBeVisible();
    expect(patches).toEqual([]);

    await user.clear(hours);
    await user.type(hours, '20.5');
    await user.click(within(form).getByRole('button', { name: 'Save pace' }));
    await vi.waitFor(() => expect(patches).toEqual([{ depthAtFullSpeed: 5, hoursPerCircle: 20.5 }]));
    expect(await screen.findByDisplayValue('20.5')).toBeVisible();
  });

  it('reads a Polish comma, and says in Polish when nothing is learned yet', async () => {
    stored = {
      ...stored,
      learned: null,
      learnedFrom: 0,
      depthAtFullSpeed: null,
      hoursPerCircleLearned: null,
      hoursPerCircle: null,
    };
    const user = userEvent.setup();
    await renderSetting(true, 'pl');
    const form = await screen.findByRole('form', { name: 'Praca przy 100 % (administratorzy)' });
    expect(form).toHaveTextContent('Jeszcze nie wyliczona z raportów');
    await user.type(within(form).getByLabelText('Dawka przy 100 %, mm'), '3,75');
    await user.click(within(form).getByRole('button', { name: 'Zapisz pracę przy 100 %' }));
    await vi.waitFor(() => expect(patches).toEqual([{ depthAtFullSpeed: 3.75, hoursPerCircle: null }]));
    expect(await screen.findByDisplayValue('3,75')).toBeVisible();
  });

  it('shows nothing to a user who is not an administrator, and asks the server nothing', async () => {
    const fetch = vi.mocked(globalThis.fetch);
    const calls: unknown[] = [];
    vi.stubGlobal('fetch', (...args: Parameters<typeof fetch>) => {
      calls.push(args);
      return fetch(...args);
    });
    const view = await renderSetting(false);
    expect(view.container).toBeEmptyDOMElement();
    expect(calls).toEqual([]);
  });
});
