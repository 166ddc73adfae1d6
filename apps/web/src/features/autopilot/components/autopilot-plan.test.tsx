import { type AutopilotPlan, type AutopilotPlannedPass, AutopilotPlanSchema } from '@pivot/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Locale } from '@/config/locales';
import { dateTimeFormat } from '@/i18n/use-date-time-format';
import { queryClient } from '@/lib/query-client';
import { session } from '@/lib/session';
import { buildUser } from '@/test-factories';
import { renderInApp } from '@/test-utils';
import { AutopilotPlanSection } from './autopilot-plan';

const PLAN_PATH = '/api/sprinkler/7/autopilot/plan/';
const WOULD_START = Date.UTC(2026, 5, 8, 20);

/** A pass as the server tells it, starting at `at`, waiting for the pump as `queued` says. */
function passOf(at: number, queued: AutopilotPlannedPass['queued']): AutopilotPlannedPass {
  return {
    at,
    dueAt: Date.UTC(2026, 5, 9, 7),
    late: false,
    areas: ['North'],
    waterM3: 800,
    waterMm: 8,
    zone: null,
    energyKwh: null,
    cost: null,
    estimated: false,
    queued,
    text: 'Start 02:00; latest start 09:00 tomorrow',
  };
}

/** Three passes: one behind a named peer and an unnamed one, one behind two unnamed, one not queued. */
const plan: AutopilotPlan = {
  mode: 'auto',
  decidedAt: Date.UTC(2026, 5, 8, 12),
  timeZone: 'Europe/Warsaw',
  days: 7,
  now: { kind: 'wait', text: 'Start put off until 22:00' },
  passes: [
    passOf(Date.UTC(2026, 5, 9, 0), { wouldStartAt: WOULD_START, behind: ['Pivot 2'], unnamed: 1 }),
    passOf(Date.UTC(2026, 5, 10, 0), { wouldStartAt: WOULD_START, behind: [], unnamed: 2 }),
    passOf(Date.UTC(2026, 5, 11, 0), null),
  ],
  reason: null,
};

beforeEach(() => {
  vi.stubGlobal('fetch', async (url: string) => {
    const { pathname } = new URL(url, 'http://localhost');
    const body = pathname === PLAN_PATH ? AutopilotPlanSchema.parse(plan) : { code: 'not_found', message: '' };
    return new Response(JSON.stringify(body), {
      status: pathname === PLAN_PATH ? 200 : 404,
      headers: { 'content-type': 'application/json' },
    });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

async function renderPlan(locale: Locale) {
  session.signIn(buildUser(), 'access-1');
  return renderInApp(
    <QueryClientProvider client={queryClient}>
      <AutopilotPlanSection sprinklerId={7} controls={false} />
    </QueryClientProvider>,
    { locale },
  );
}

describe("the autopilot plan's passes waiting for the pump", () => {
  it('says in English whom a pass waits for, a machine not granted unnamed, and when it would start', async () => {
    await renderPlan('en');
    const wouldStart = dateTimeFormat('en', 'Europe/Warsaw').dateTime(WOULD_START);
    const items = await screen.findAllByRole('listitem');
    expect(items[0]).toHaveTextContent(
      `Queued for the pump behind Pivot 2 and another machine on this pump; with the pump free it would start ${wouldStart}.`,
    );
    expect(items[1]).toHaveTextContent(`Queued for the pump behind 2 other machines on this pump;`);
    expect(items[2]).not.toHaveTextContent(/Queued/);
  });

  it('says it in Polish', async () => {
    await renderPlan('pl');
    const wouldStart = dateTimeFormat('pl', 'Europe/Warsaw').dateTime(WOULD_START);
    const items = await screen.findAllByRole('listitem');
    expect(items[0]).toHaveTextContent(
      `W kolejce do pompy za: Pivot 2 i inna maszyna na tej pompie; przy wolnej pompie start ${wouldStart}.`,
    );
    expect(items[1]).toHaveTextContent('W kolejce do pompy za: 2 inne maszyny na tej pompie;');
    expect(items[2]).not.toHaveTextContent(/W kolejce/);
  });
});
