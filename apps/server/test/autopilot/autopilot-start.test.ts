import {
  AutopilotPlanSchema,
  AutopilotSettingsSchema,
  type LogEntry,
  LogListResponseSchema,
  SprinklerDetailSchema,
  SprinklerListItemSchema,
  topics,
} from '@pivot/contracts';
import type { PivotMachine } from '@pivot/simulator';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMemory } from '../../src/modules/autopilot';
import { logEntries } from '../../src/modules/logs/logs.table';
import { sprinklers } from '../../src/modules/sprinklers/sprinklers.table';
import { telemetry } from '../../src/modules/telemetry/telemetry.table';
import { weatherReadings } from '../../src/modules/weather/weather.table';
import { addDays, localDate } from '../../src/time/local-day';
import type { ApiClient } from '../support/api-client';
import { clearRetained } from '../support/broker';
import { startRegisteredMachine } from '../support/devices';
import { grant } from '../support/fixtures';
import { halvesField } from '../support/halves-field';
import { useTestApp } from '../support/test-app';
import { warmDryDay } from '../support/weather-days';

const TIME_ZONE = 'Europe/Warsaw';
const CENTRE = { lat: 52.3, lng: 17.2 };
const ARM = 100;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const field = halvesField(CENTRE, ARM);
/** Rules that hold nothing back: no wind or frost limit (no current station here), no rain skip. */
const OPEN_RULES = { wind: null, frost: null, rainSkip: null };

/**
 * "Water now as advised" (docs/autopilot.md, "One tap"): a real machine (the simulator, through
 * the broker) whose East half is due at once, started in one call by a person with control.
 */
describe('the one-tap start of the pass the autopilot advises', () => {
  const t = useTestApp({ TIME_ZONE, COMMAND_TIMEOUT_MS: '3000' }, { signInAdmin: true });
  let farmer: ApiClient;
  let farmerId: number;
  let watching: ApiClient;
  let stranger: ApiClient;
  let machine: PivotMachine;
  let sprinklerId: number;
  const today = localDate(TIME_ZONE, Date.now());

  beforeAll(async () => {
    const id = `TAP-${Date.now().toString(36)}`;
    machine = await startRegisteredMachine(t.app, id, {
      ...CENTRE,
      armLength: ARM,
      angle: 10,
      program: { name: 'Połówki', programData: field.program },
      programProcessingMs: 200,
      movingTelemetryMs: 300,
      restingTelemetryMs: 500,
    });
    const added = await t.admin.post('/api/sprinkler/', { internalId: id });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    sprinklerId = SprinklerListItemSchema.parse(added.body).id;
    await t.database.db.update(sprinklers).set({ areaMap: field.areaMap }).where(eq(sprinklers.id, sprinklerId));
    const owner = await t.signedInUser({ language: 'en' });
    farmer = owner.client;
    farmerId = owner.user.id;
    await grant(t, sprinklerId, farmerId, 'control');
    const onlyWatching = await t.signedInUser({ language: 'en' });
    watching = onlyWatching.client;
    await grant(t, sprinklerId, onlyWatching.user.id, 'watch');
    stranger = (await t.signedInUser()).client;
    for (let day = 6; day >= 1; day -= 1) {
      await t.database.db.insert(weatherReadings).values(warmDryDay('WS-TAP', addDays(today, -day), TIME_ZONE));
    }
    const seasons = await farmer.put(`/api/sprinkler/${sprinklerId}/crop-seasons/`, field.seasons(today));
    expect(seasons.status, JSON.stringify(seasons.body)).toBe(200);
    // Its pace, learned from half an hour of watering three weeks ago (before the season: no water in the balance).
    const from = Date.now() - 21 * DAY;
    await t.database.db.insert(telemetry).values(
      Array.from({ length: 361 }, (_, index) => ({
        machineId: id,
        ts: new Date(from + index * 5000),
        status: 'front' as const,
        angle: (index * 5 * 0.05) % 360,
        distance: ARM,
        speed: 100,
        flow: 20,
        pressure: 2.5,
      })),
    );
  });
  afterAll(async () => {
    await machine.stop();
    await clearRetained(t.app, [topics.presence(machine.id), topics.program(machine.id)]);
  });

  const settingsUrl = () => `/api/sprinkler/${sprinklerId}/autopilot/`;
  const startUrl = () => `/api/sprinkler/${sprinklerId}/autopilot/start/`;
  const setMode = async (mode: 'off' | 'suggest' | 'auto', rules: object = OPEN_RULES) => {
    const response = await farmer.put(settingsUrl(), { mode, rules });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
  };
  const look = (now: number) => t.app.autopilotWatch.lookOnce(now);
  const status = async () =>
    SprinklerDetailSchema.parse((await farmer.get(`/api/sprinkler/${sprinklerId}`)).body).status;
  const log = async (): Promise<LogEntry[]> =>
    LogListResponseSchema.parse((await farmer.get('/api/logs/', { query: { pageSize: 100 } })).body).data;
  const count = (entries: LogEntry[], eventType: LogEntry['eventType']) =>
    entries.filter((entry) => entry.eventType === eventType).length;
  /** Who the machine's command entries name as their actor, oldest first. */
  const commandActors = async () =>
    (
      await t.database.db
        .select({ eventType: logEntries.eventType, event: logEntries.event, actor: logEntries.actorUserId })
        .from(logEntries)
        .where(
          and(
            eq(logEntries.sprinklerId, sprinklerId),
            inArray(logEntries.eventType, ['program_sent', 'sprinkler_motion_success']),
          ),
        )
        .orderBy(logEntries.id)
    ).map(({ eventType, event, actor }) => [eventType, event, actor]);
  async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean): Promise<T> {
    const deadline = Date.now() + 8000;
    for (;;) {
      const value = await read();
      if (accept(value) || Date.now() > deadline) return value;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('is in the OpenAPI document, a POST tagged autopilot, with its refusals', async () => {
    const response = await farmer.get('/api/docs/json');
    const paths = (response.body as { paths: Record<string, Record<string, { tags?: string[] }>> }).paths;
    const operations = paths['/api/sprinkler/{id}/autopilot/start/']!;
    expect(Object.keys(operations)).toEqual(['post']);
    expect(operations.post!.tags).toEqual(['autopilot']);
    for (const code of ['watch_only', 'autopilot_off', 'nothing_due', 'sprinkler_in_alarm', 'start_in_progress']) {
      expect(JSON.stringify(operations.post)).toContain(code);
    }
  });

  it('refuses a user without control, an autopilot that is off, and a pass that is not for now', async () => {
    expect((await stranger.post(startUrl())).status).toBe(404);
    const watcher = await watching.post(startUrl());
    expect(watcher.status).toBe(403);
    expect(watcher.body).toMatchObject({ code: 'watch_only' });

    // Never set: off.
    const off = await farmer.post(startUrl());
    expect(off.status).toBe(409);
    expect(off.body).toMatchObject({ code: 'autopilot_off' });

    // Suggest, but its only allowed hour is two hours away: the autopilot waits, so nothing is due now.
    const hour = Number(
      new Intl.DateTimeFormat('en-GB', { hour: '2-digit', hourCycle: 'h23', timeZone: TIME_ZONE }).format(new Date()),
    );
    const at = (offset: number) => `${String((hour + offset) % 24).padStart(2, '0')}:00`;
    await setMode('suggest', {
      ...OPEN_RULES,
      allowedHours: [{ days: [1, 2, 3, 4, 5, 6, 7], start: at(2), end: at(3) }],
    });
    const plan = AutopilotPlanSchema.parse((await farmer.get(`${settingsUrl()}plan/`)).body);
    expect(plan.now.kind).toBe('wait');
    const notNow = await farmer.post(startUrl());
    expect(notNow.status).toBe(409);
    expect(notNow.body).toMatchObject({ code: 'nothing_due' });

    expect(await status()).toBe('stop');
    expect(await commandActors()).toEqual([]);
  });

  it('in suggest, starts the pass in one call, once for two calls at once, the person its actor', async () => {
    await setMode('suggest');
    await look(Date.now());
    expect(count(await log(), 'sprinkler_irrigation_due')).toBe(1);
    const plan = AutopilotPlanSchema.parse((await farmer.get(`${settingsUrl()}plan/`)).body);
    expect(plan.now.kind).toBe('start');

    // A double tap (or two tabs): one starts the machine, the other is told a start is under way.
    const [first, second] = await Promise.all([farmer.post(startUrl()), farmer.post(startUrl())]);
    const answers = [first, second].sort((a, b) => a.status - b.status);
    expect(answers.map((answer) => answer.status)).toEqual([200, 409]);
    expect(['start_in_progress', 'already_watering']).toContain((answers[1]!.body as { code: string }).code);
    expect(await eventually(status, (value) => value === 'front')).toBe('front');

    // The program from the advice, then front: each once, the farmer their actor.
    expect(await commandActors()).toEqual([
      ['program_sent', 'Połówki', farmerId],
      ['sprinkler_motion_success', 'front', farmerId],
    ]);
    const entries = await log();
    // "Irrigation due" is over as the machine waters; the mode stays suggest, nothing was taken over.
    expect(count(entries, 'sprinkler_irrigation_due_over')).toBe(1);
    expect(
      entries.filter((entry) => entry.eventType === 'sprinkler_autopilot_updated').map((entry) => entry.details),
    ).not.toContain('taken_over');
    expect(AutopilotSettingsSchema.parse((await farmer.get(settingsUrl())).body).mode).toBe('suggest');
    const memory = (await readMemory(t.database.db, sprinklerId)) as {
      run?: { asked?: boolean; revolutionHours: number; areas: string[] };
      dueAlerted?: boolean;
      startingSince?: number;
    };
    expect(memory.run).toMatchObject({ asked: true, areas: ['Wschód'] });
    expect(memory.run!.revolutionHours).toBeGreaterThan(0);
    expect(memory.dueAlerted).toBeUndefined();
    expect(memory.startingSince).toBeUndefined();

    // Once it waters, another tap is refused as such.
    const again = await farmer.post(startUrl());
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'already_watering' });
    expect(await commandActors()).toHaveLength(2);
  });

  it('stops the pass a person asked for once its revolution is done, in suggest too', async () => {
    await look(Date.now() + 10 * MINUTE);
    expect(await status()).toBe('front');
    const memory = (await readMemory(t.database.db, sprinklerId)) as {
      run: { startedAt: number; revolutionHours: number };
    };
    await look(memory.run.startedAt + memory.run.revolutionHours * HOUR + MINUTE);
    expect(await eventually(status, (value) => value === 'stop')).toBe('stop');
    // The server's own stop: no actor.
    expect((await commandActors()).at(-1)).toEqual(['sprinkler_motion_success', 'stop', null]);
    expect(((await readMemory(t.database.db, sprinklerId)) as { run?: unknown }).run).toBeUndefined();
  });

  it('refuses a machine that is offline, and sends nothing', async () => {
    await machine.stop();
    await eventually(
      async () => SprinklerDetailSchema.parse((await farmer.get(`/api/sprinkler/${sprinklerId}`)).body).online,
      (online) => !online,
    );
    const before = (await commandActors()).length;
    const offline = await farmer.post(startUrl());
    expect(offline.status).toBe(409);
    expect(offline.body).toMatchObject({ code: 'sprinkler_offline' });
    expect(await commandActors()).toHaveLength(before);
  });
});
