import { RefreshResponseSchema, adviceEndpoints, machineHistoryEndpoints, usersEndpoints } from '@pivot/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ZodType, z } from 'zod';
import { buildUser, buildWaterBalance } from '@/test-factories';

/**
 * The first screen's answers, read before zod and their schemas have come (checked-later.ts):
 * each test takes fresh modules, so the schemas the test set-up fetched are not there yet.
 */
async function freshClient() {
  vi.resetModules();
  const firstScreen = await import('./first-screen');
  const client = await import('./api-client');
  const later = await import('./checked-later');
  const failures: unknown[] = [];
  client.onApiFailure((failure) => failures.push(failure));
  const profile = later.laterEndpoint((contracts) => contracts.usersEndpoints.profile, 'GET', '/user/');
  return { ...firstScreen, ...client, ...later, failures, profile };
}

const user = buildUser({ id: 7, first_name: 'Anna', last_name: 'Nowak', email: 'anna@farm.pl' });
let answers: unknown[] = [];

beforeEach(() => {
  vi.stubGlobal('fetch', async () => new Response(JSON.stringify(answers.shift()), { status: 200 }));
});

afterEach(() => {
  vi.unstubAllGlobals();
  answers = [];
});

describe('answers checked once their schemas have come', () => {
  it('hands a first screen its answer before zod has come, and checks it once the screen has shown', async () => {
    const { callEndpoint, profile, answerSchemasNow, markScreenShown, failures } = await freshClient();
    answers = [user];
    const refusedLater = vi.fn();
    await expect(callEndpoint(profile, { refusedLater })).resolves.toEqual(user);
    expect(answerSchemasNow()).toBeUndefined();
    markScreenShown();
    await vi.waitFor(() => expect(answerSchemasNow()).toBeDefined(), { timeout: 5000 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(refusedLater).not.toHaveBeenCalled();
    expect(failures).toEqual([]);
  });

  it('refuses an answer outside the contract once checked: told as one refused on arrival, and taken back', async () => {
    const { callEndpoint, profile, markScreenShown, failures } = await freshClient();
    const malformed = { ...user, admin: 'yes' };
    answers = [malformed];
    const refusedLater = vi.fn();
    await expect(callEndpoint(profile, { refusedLater })).resolves.toEqual(malformed);
    markScreenShown();
    await vi.waitFor(() => expect(refusedLater).toHaveBeenCalledOnce(), { timeout: 5000 });
    expect(failures).toEqual([{ status: null, error: null, body: malformed }]);
  });

  it('checks an answer on arrival once the schemas are there', async () => {
    const { callEndpoint, profile, fetchAnswerSchemas, failures } = await freshClient();
    await fetchAnswerSchemas();
    answers = [{ ...user, admin: 'yes' }];
    const refusedLater = vi.fn();
    await expect(callEndpoint(profile, { refusedLater })).resolves.toBe(false);
    expect(failures).toHaveLength(1);
    expect(refusedLater).not.toHaveBeenCalled();
  });

  it('gives live events to their reader in their order, once the schemas have come', async () => {
    const { withAnswerSchemas, markScreenShown } = await freshClient();
    const checked = withAnswerSchemas();
    const seen: number[] = [];
    for (const event of [1, 2, 3]) checked(() => seen.push(event));
    expect(seen).toEqual([]);
    markScreenShown();
    await vi.waitFor(() => expect(seen).toEqual([1, 2, 3]), { timeout: 5000 });
    checked(() => seen.push(4));
    expect(seen).toEqual([1, 2, 3, 4]);
  });
});

describe("the refresh's answer, read without zod", () => {
  it('takes what RefreshResponseSchema takes, and nothing else', async () => {
    const { accessTokenOf } = await import('./api-client');
    const samples: unknown[] = [
      { access: 'token' },
      { access: '' },
      { access: 7 },
      { access: 'token', user: 1 },
      {},
      null,
      'token',
      ['token'],
      { access: null },
    ];
    for (const sample of samples) {
      const parsed = RefreshResponseSchema.safeParse(sample);
      expect(accessTokenOf(sample), JSON.stringify(sample)).toBe(parsed.success ? parsed.data.access : null);
    }
  });
});

describe('an answer handed over before it is checked', () => {
  /** An answer as the server sends it (encoded, as JSON), from its decoded form. */
  const wire = (schema: ZodType, value: unknown): unknown => JSON.parse(JSON.stringify(z.encode(schema, value)));

  it('is what its schema would have given, for the answers handed over as they came', () => {
    // A machine's lat and lng are decoded by hand: features/sprinklers/api/decode-machines.test.ts.
    const asTheyCome: [ZodType, unknown][] = [
      [usersEndpoints.profile.answer, buildUser()],
      [machineHistoryEndpoints.watermap.answer, { data: [[52.1, 21.0, 12.5]], step: 10 }],
      [adviceEndpoints.waterBalance.answer, buildWaterBalance()],
      [adviceEndpoints.nextIrrigation.answer, [{ id: 1, nextIrrigation: '10.06.2026' }]],
    ];
    for (const [schema, value] of asTheyCome) {
      const answer = wire(schema, value);
      expect(schema.parse(answer)).toStrictEqual(answer);
    }
  });
});
