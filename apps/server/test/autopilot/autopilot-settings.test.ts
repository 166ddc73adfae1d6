import {
  AutopilotPlanSchema,
  AutopilotRulesSchema,
  AutopilotSettingsSchema,
  ErrorBodySchema,
  LogListResponseSchema,
  TARIFF_PRESETS,
} from '@pivot/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { readMemory, saveMemory } from '../../src/modules/autopilot';
import type { ApiClient } from '../support/api-client';
import { buildSprinkler, grant } from '../support/fixtures';
import { useTestApp } from '../support/test-app';

const RULES = {
  allowedHours: [{ days: [1, 2, 3, 4, 5], start: '22:00', end: '06:00' }],
  tariff: TARIFF_PRESETS.G12,
  rainSkip: { mm: 8, withinHours: 12 },
  wind: null,
  frost: { minC: 1 },
  allowance: { unit: 'mm', amount: 250 },
  pumpGroup: { id: 'Well 1', maxAtOnce: 2 },
};

/** Each machine's autopilot mode and rules (docs/autopilot.md, "The modes and where they are set"). */
describe("a machine's autopilot settings", () => {
  const t = useTestApp({}, { signInAdmin: true });
  let farmer: ApiClient;
  let farmerId: number;
  let englishFarmer: ApiClient;
  let watcher: ApiClient;
  let stranger: ApiClient;
  let sprinklerId: number;
  let url: string;

  beforeAll(async () => {
    const owner = await t.signedInUser();
    farmer = owner.client;
    farmerId = owner.user.id;
    const english = await t.signedInUser({ language: 'en' });
    englishFarmer = english.client;
    const onlyWatching = await t.signedInUser();
    watcher = onlyWatching.client;
    stranger = (await t.signedInUser()).client;
    sprinklerId = (await buildSprinkler(t)).id;
    url = `/api/sprinkler/${sprinklerId}/autopilot/`;
    await grant(t, sprinklerId, owner.user.id, 'control');
    await grant(t, sprinklerId, english.user.id, 'control');
    await grant(t, sprinklerId, onlyWatching.user.id, 'watch');
  });

  const autopilotEntries = async (client: ApiClient = farmer) =>
    LogListResponseSchema.parse((await client.get('/api/logs/', { query: { pageSize: 100 } })).body).data.filter(
      (entry) => entry.eventType === 'sprinkler_autopilot_updated',
    );

  it('answers a machine never set as off, with the rules’ defaults', async () => {
    const response = await watcher.get(url);
    expect(response.status).toBe(200);
    expect(AutopilotSettingsSchema.parse(response.body)).toEqual({
      mode: 'off',
      rules: AutopilotRulesSchema.parse({}),
      updatedAt: null,
    });
  });

  it('logs a first save clicked many times once: the machine is locked before it has a row', async () => {
    const twin = (await buildSprinkler(t)).id;
    const admin = t.admin;
    const twinUrl = `/api/sprinkler/${twin}/autopilot/`;
    // Clicked over and over, the first save of a machine never set.
    const saves = await Promise.all(Array.from({ length: 8 }, () => admin.put(twinUrl, { mode: 'auto', rules: {} })));
    expect(saves.map((save) => save.status)).toEqual(Array.from({ length: 8 }, () => 200));
    const logged = LogListResponseSchema.parse((await admin.get('/api/logs/', { query: { pageSize: 100 } })).body).data;
    expect(
      logged.filter((entry) => entry.eventType === 'sprinkler_autopilot_updated' && entry.sprinklerInternalId !== null)
        .length,
    ).toBe(1);
    expect((await admin.put(twinUrl, { mode: 'off', rules: {} })).status).toBe(200);
  });

  it('saves the mode and rules and reads them back, a rule left out at its default; the change logged once', async () => {
    const { pumpGroup: _left, ...rules } = RULES;
    const saved = await farmer.put(url, { mode: 'suggest', rules });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const settings = AutopilotSettingsSchema.parse(saved.body);
    expect(settings).toMatchObject({ mode: 'suggest', rules: { ...rules, pumpGroup: null } });
    expect(settings.updatedAt).toBeGreaterThan(Date.now() - 60_000);
    expect(AutopilotSettingsSchema.parse((await watcher.get(url)).body)).toEqual(settings);
    const entries = await autopilotEntries();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ event: 'suggest', details: 'user', sprinklerName: expect.any(String) });

    // The same again changes nothing and logs nothing.
    expect((await farmer.put(url, { mode: 'suggest', rules })).status).toBe(200);
    expect(await autopilotEntries()).toHaveLength(1);
    // The rules alone changed: logged, with the mode it is in.
    expect((await farmer.put(url, { mode: 'suggest', rules: RULES })).status).toBe(200);
    expect((await autopilotEntries()).map((entry) => [entry.event, entry.details])).toEqual([
      ['suggest', 'user'],
      ['suggest', 'user'],
    ]);
  });

  it('refuses bad rules with a 400 in the user’s language, Polish by default', async () => {
    const bad = { mode: 'auto', rules: { ...RULES, allowedHours: [{ days: [1], start: '25:00', end: '06:00' }] } };
    const polish = await farmer.put(url, bad);
    expect(polish.status).toBe(400);
    const polishBody = ErrorBodySchema.parse(polish.body);
    expect(polishBody).toMatchObject({ code: 'validation_error', message: 'Błąd zapytania - spróbuj ponownie' });
    expect(polishBody.issues).toEqual([
      { path: 'body.rules.allowedHours.0.start', message: 'Wpisz godzinę, np. 22:00' },
    ]);
    const english = await englishFarmer.put(url, bad);
    expect(english.status).toBe(400);
    expect(ErrorBodySchema.parse(english.body)).toEqual({
      code: 'validation_error',
      message: 'Query error - try again',
      issues: [{ path: 'body.rules.allowedHours.0.start', message: 'Expected a local time such as 22:00' }],
    });
    // zod's own messages in the user's language: a wind limit out of its bounds.
    const windy = { mode: 'auto', rules: { ...RULES, wind: { maxMs: 99 } } };
    expect(ErrorBodySchema.parse((await farmer.put(url, windy)).body).issues).toEqual([
      { path: 'body.rules.wind.maxMs', message: 'Liczba może wynosić najwyżej 40' },
    ]);
    expect(ErrorBodySchema.parse((await englishFarmer.put(url, windy)).body).issues).toEqual([
      { path: 'body.rules.wind.maxMs', message: 'Too big: expected number to be <=40' },
    ]);
    expect(AutopilotSettingsSchema.parse((await farmer.get(url)).body).mode).toBe('suggest');
  });

  it('refuses a watcher’s change with watch_only, and answers a machine not granted as not found', async () => {
    const refused = await watcher.put(url, { mode: 'auto', rules: RULES });
    expect(refused.status).toBe(403);
    expect(ErrorBodySchema.parse(refused.body)).toMatchObject({
      code: 'watch_only',
      message: 'Możesz tylko podglądać tę maszynę: poproś administratora o sterowanie',
    });
    for (const response of [await stranger.get(url), await stranger.put(url, { mode: 'auto', rules: RULES })]) {
      expect(response.status).toBe(404);
      expect(ErrorBodySchema.parse(response.body).code).toBe('sprinkler_not_found');
    }
    expect(AutopilotSettingsSchema.parse((await farmer.get(url)).body).mode).toBe('suggest');
  });

  it('lists the machines in suggest or auto for the watcher, with a memory it keeps', async () => {
    const other = (await buildSprinkler(t)).id;
    await grant(t, other, farmerId, 'control');
    expect((await farmer.put(`/api/sprinkler/${other}/autopilot/`, { mode: 'off', rules: {} })).status).toBe(200);
    const watched = await t.app.autopilot.watched();
    expect(watched.map((machine) => [machine.sprinklerId, machine.mode])).toEqual([[sprinklerId, 'suggest']]);
    expect(watched[0]).toMatchObject({ rules: AutopilotRulesSchema.parse(RULES), memory: {} });
    expect(watched[0]!.internalId).toEqual(expect.any(String));

    const db = t.database.db;
    expect(await saveMemory(db, sprinklerId, { rainSkip: { at: 1 } })).toBe(true);
    expect(await readMemory(db, sprinklerId)).toEqual({ rainSkip: { at: 1 } });
    expect((await t.app.autopilot.watched())[0]!.memory).toEqual({ rainSkip: { at: 1 } });
    // A save of the mode or rules keeps what the watcher remembers.
    expect((await farmer.put(url, { mode: 'suggest', rules: { ...RULES, wind: { maxMs: 12 } } })).status).toBe(200);
    expect(await readMemory(db, sprinklerId)).toEqual({ rainSkip: { at: 1 } });
    // A machine without settings keeps nothing.
    const unset = (await buildSprinkler(t)).id;
    expect(await saveMemory(db, unset, { x: 1 })).toBe(false);
    expect(await readMemory(db, unset)).toEqual({});
  });

  it('is in the OpenAPI document: the two operations, tagged autopilot', async () => {
    const response = await farmer.get('/api/docs/json');
    expect(response.status).toBe(200);
    const paths = (response.body as { paths: Record<string, Record<string, { tags?: string[] }>> }).paths;
    const operations = paths['/api/sprinkler/{id}/autopilot/']!;
    expect(Object.keys(operations).sort()).toEqual(['get', 'put']);
    expect(operations.get!.tags).toEqual(['autopilot']);
    expect(JSON.stringify(operations.put)).toContain('watch_only');
  });

  it("tells the plan in the page's language (Accept-Language), else the account's", async () => {
    const plan = `${url}plan/`;
    const polish = AutopilotPlanSchema.parse((await watcher.get(plan)).body);
    expect(polish.reason).toBe('no_season');
    expect(polish.now.text).toBe('Nie uruchomiono: maszyna jest offline');
    const english = AutopilotPlanSchema.parse(
      (await watcher.get(plan, { headers: { 'accept-language': 'en-GB' } })).body,
    );
    expect(english.now.text).toBe('Not started: the machine is offline');
    const account = AutopilotPlanSchema.parse((await englishFarmer.get(plan)).body);
    expect(account.now.text).toBe('Not started: the machine is offline');
  });
});
