import {
  AutopilotPlanSchema,
  type LogEntry,
  LogListResponseSchema,
  SprinklerDetailSchema,
  SprinklerListItemSchema,
  topics,
} from '@pivot/contracts';
import type { PivotMachine } from '@pivot/simulator';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimStart, readMemory, saveMemory } from '../../src/modules/autopilot';
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
 * The watcher on a real machine (the simulator, through the broker), on the server's own balance:
 * its East half is due at once (shallow roots on sand), its West half not this season.
 */
describe('the autopilot at work', () => {
  const t = useTestApp({ TIME_ZONE, COMMAND_TIMEOUT_MS: '3000' }, { signInAdmin: true });
  let farmer: ApiClient;
  let watcher: { id: number };
  let watching: ApiClient;
  let stranger: ApiClient;
  let machine: PivotMachine;
  let sprinklerId: number;
  let farmerId: number;
  const today = localDate(TIME_ZONE, Date.now());

  beforeAll(async () => {
    const id = `AUTO-${Date.now().toString(36)}`;
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
    watcher = onlyWatching.user;
    watching = onlyWatching.client;
    await grant(t, sprinklerId, watcher.id, 'watch');
    stranger = (await t.signedInUser()).client;
    for (let day = 6; day >= 1; day -= 1) {
      await t.database.db.insert(weatherReadings).values(warmDryDay('WS-AUTO', addDays(today, -day), TIME_ZONE));
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

  const url = () => `/api/sprinkler/${sprinklerId}/autopilot/`;
  const setMode = async (mode: 'off' | 'suggest' | 'auto') => {
    const response = await farmer.put(url(), { mode, rules: OPEN_RULES });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
  };
  const look = (now: number) => t.app.autopilotWatch.lookOnce(now);
  const status = async () =>
    SprinklerDetailSchema.parse((await farmer.get(`/api/sprinkler/${sprinklerId}`)).body).status;
  const log = async (): Promise<LogEntry[]> =>
    LogListResponseSchema.parse((await farmer.get('/api/logs/', { query: { pageSize: 100 } })).body).data;
  const count = (entries: LogEntry[], eventType: LogEntry['eventType']) =>
    entries.filter((entry) => entry.eventType === eventType).length;
  async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean): Promise<T> {
    const deadline = Date.now() + 8000;
    for (;;) {
      const value = await read();
      if (accept(value) || Date.now() > deadline) return value;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const move = async (motion: 'front' | 'stop') => {
    const response = await farmer.post(`/api/sprinkler/${sprinklerId}/motion`, { motion });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
  };

  it('in auto, sends the program from the advice and starts the machine itself, and says why', async () => {
    await setMode('auto');
    const now = Date.now();
    await look(now);
    expect(await eventually(status, (value) => value === 'front')).toBe('front');
    const entries = await log();
    // The server's own commands: no actor, no address; the decision told in the reader's language.
    const sent = entries.find((entry) => entry.eventType === 'program_sent')!;
    expect(sent).toMatchObject({ event: 'Połówki', ip: '' });
    expect(entries.find((entry) => entry.eventType === 'sprinkler_motion_success')).toMatchObject({ event: 'front' });
    const decision = entries.find((entry) => entry.eventType === 'sprinkler_autopilot_decision')!;
    expect(decision.details).toBe('auto');
    expect(decision.event).toMatch(/^Start \d\d:\d\d/);
    // The program sent waters the East half only: the West one is crossed dry.
    const memory = (await readMemory(t.database.db, sprinklerId)) as { run?: { revolutionHours: number } };
    expect(memory.run?.revolutionHours).toBeGreaterThan(0);

    // A look while it waters starts nothing again, and tells the log nothing new but "watering".
    await look(now + 10 * MINUTE);
    const after = await log();
    expect(count(after, 'program_sent')).toBe(1);
    expect(after[0]).toMatchObject({ eventType: 'sprinkler_autopilot_decision', event: 'Watering: nothing to change' });
  });

  it('stops the machine once its revolution is done', async () => {
    const memory = (await readMemory(t.database.db, sprinklerId)) as {
      run: { startedAt: number; revolutionHours: number };
    };
    await look(memory.run.startedAt + memory.run.revolutionHours * HOUR + MINUTE);
    expect(await eventually(status, (value) => value === 'stop')).toBe('stop');
    expect((await log())[0]).toMatchObject({ eventType: 'sprinkler_motion_success', event: 'stop' });
    expect(((await readMemory(t.database.db, sprinklerId)) as { run?: unknown }).run).toBeUndefined();
  });

  it('of two claims of one start, one wins; a start left claimed by a crash is taken up once stale', async () => {
    const now = Date.now();
    const claims = await Promise.all([
      claimStart(t.database.db, sprinklerId, now, now - 5 * MINUTE, null),
      claimStart(t.database.db, sprinklerId, now, now - 5 * MINUTE, null),
    ]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    // As a server killed between its claim and front leaves it: claimed, the pass its own, the machine at rest.
    const run = { startedAt: now, revolutionHours: 20, areas: ['Wschód'] };
    await saveMemory(t.database.db, sprinklerId, { startingSince: now, run });
    const sentBefore = count(await log(), 'program_sent');
    // The claim is young (its commands could still be waited for, 3 s each): nothing is done.
    await look(now + 10_000);
    expect(count(await log(), 'program_sent')).toBe(sentBefore);
    // Its claim refused, the look leaves the memory as the claiming instance keeps it: the pass is
    // still the autopilot's when that instance's front goes through (or the claim goes stale).
    expect(await readMemory(t.database.db, sprinklerId)).toMatchObject({ startingSince: now, run });
    // Nor when it goes stale while the look reads the machine: the next look takes it up, and tells of it.
    await look(now + 22_995);
    expect(count(await log(), 'program_sent')).toBe(sentBefore);
    expect(await status()).toBe('stop');
    // Once stale (both timeouts and a margin: 23 s), the start cut short is told, and its pass is
    // not taken as watered. The machine leaves the program unanswered: this start fails too.
    machine.misbehaveNext('missing');
    await look(now + 30_000);
    const failed = (await log()).filter((entry) => entry.eventType === 'sprinkler_autopilot_start_failed');
    expect(failed.map((entry) => entry.event)).toContain('interrupted');
    expect(await status()).toBe('stop');
    const forgotten = (await readMemory(t.database.db, sprinklerId)) as { watered?: unknown; startingSince?: number };
    expect(forgotten.watered).toBeUndefined();
    expect(forgotten.startingSince).toBeUndefined();
    // The half is still due: the next look starts it.
    await look(now + 40_000);
    expect(await eventually(status, (value) => value === 'front')).toBe('front');
    expect(count(await log(), 'program_sent')).toBe(sentBefore + 1);
    expect(count(await log(), 'sprinkler_autopilot_started_again')).toBe(1);
    // The farmer stops it: a person's command turns the autopilot to suggest.
    await move('stop');
    expect((await log()).find((entry) => entry.eventType === 'sprinkler_autopilot_updated')).toMatchObject({
      event: 'suggest',
      details: 'taken_over',
    });
  });

  it('never writes over a pass started since the writer read the memory (a tap during a look)', async () => {
    const { db } = t.database;
    const kept = await readMemory(db, sprinklerId);
    const now = Date.now() + 30 * MINUTE;
    await saveMemory(db, sprinklerId, {});
    // A tap claims and keeps its pass...
    expect(await claimStart(db, sprinklerId, now, now - 5 * MINUTE, null)).toBe(true);
    expect(await saveMemory(db, sprinklerId, { run: { startedAt: now, revolutionHours: 20, areas: [] } }, null)).toBe(
      true,
    );
    // ...while a look that read the memory before it keeps what it decided, or claims a start: refused.
    expect(await saveMemory(db, sprinklerId, { dueAlerted: true }, null)).toBe(false);
    expect(await claimStart(db, sprinklerId, now + 6 * MINUTE, now + MINUTE, null)).toBe(false);
    expect(await readMemory(db, sprinklerId)).toEqual({ run: { startedAt: now, revolutionHours: 20, areas: [] } });
    // Who read that pass writes on.
    expect(await saveMemory(db, sprinklerId, { watered: { at: now, areas: [] } }, now)).toBe(true);
    await saveMemory(db, sprinklerId, kept);
  });

  it('in suggest, tells those who control the machine that irrigation is due, until it waters', async () => {
    await setMode('suggest');
    const now = Date.now() + HOUR;
    await look(now);
    expect(await status()).toBe('stop');
    const due = (await log()).find((entry) => entry.eventType === 'sprinkler_irrigation_due')!;
    expect(due.event).toBe('Wschód');
    const recipients = await t.app.alerts.recipientsOn(t.database.db, [sprinklerId]);
    expect(recipients(sprinklerId, 'irrigation_due', 'in_app')).toContain(farmerId);
    expect(recipients(sprinklerId, 'irrigation_due', 'in_app')).not.toContain(watcher.id);
    // Water stress, by contrast, reaches whoever watches.
    expect(recipients(sprinklerId, 'water_stress', 'in_app')).toContain(watcher.id);
    // A second look opens nothing more; the farmer's start ends it.
    await look(now + 10 * MINUTE);
    expect(count(await log(), 'sprinkler_irrigation_due')).toBe(1);
    await move('front');
    await look(now + 20 * MINUTE);
    expect(count(await log(), 'sprinkler_irrigation_due_over')).toBe(1);
    await move('stop');
  });

  it('plans the coming passes for whoever sees the machine, in their words, and for no one else', async () => {
    const planUrl = `/api/sprinkler/${sprinklerId}/autopilot/plan/`;
    expect((await stranger.get(planUrl)).status).toBe(404);
    const answer = await watching.get(planUrl);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const plan = AutopilotPlanSchema.parse(answer.body);
    // Its times are told in the server's zone, the rules' own: the page shows them in it too.
    expect(plan).toMatchObject({ mode: 'suggest', days: 7, timeZone: TIME_ZONE, reason: null, now: { kind: 'start' } });
    expect(plan.now.text).toMatch(/^Start \d\d:\d\d/);
    // The East half is due now; no tariff, no pump power: no zone, no cost.
    expect(plan.passes[0]).toMatchObject({ areas: ['Wschód'], estimated: false, zone: null, cost: null });
    expect(plan.passes[0]!.waterM3).toBeGreaterThan(0);
    expect(plan.passes[0]!.text).toMatch(/^Start \d\d:\d\d/);
    const polish = AutopilotPlanSchema.parse((await t.admin.get(planUrl)).body);
    expect(polish.passes[0]!.text).toMatch(/^Start \d\d:\d\d; najpóźniej/);
  });

  it('ends "Irrigation due" when the autopilot is turned off, which it no longer looks at', async () => {
    await look(Date.now() + 3 * HOUR);
    expect(count(await log(), 'sprinkler_irrigation_due')).toBe(2);
    await setMode('off');
    expect(count(await log(), 'sprinkler_irrigation_due_over')).toBe(2);
    // Suggest again: the next look may tell of it again.
    await setMode('suggest');
    await look(Date.now() + 4 * HOUR);
    expect(count(await log(), 'sprinkler_irrigation_due')).toBe(3);
  });

  it('alerts of a start the machine does not answer, and of the next that goes through', async () => {
    await setMode('auto');
    machine.misbehaveNext('missing');
    const now = Date.now() + 2 * HOUR;
    const startedAgainBefore = count(await log(), 'sprinkler_autopilot_started_again');
    // The program is not answered: the command's timeout (3 s), then the incident.
    await look(now);
    const failed = (await log()).find((entry) => entry.eventType === 'sprinkler_autopilot_start_failed')!;
    expect(failed.event).toBe('unanswered');
    expect(await status()).toBe('stop');
    const recipients = await t.app.alerts.recipientsOn(t.database.db, [sprinklerId]);
    expect(recipients(sprinklerId, 'start_failed', 'in_app')).toEqual(expect.arrayContaining([farmerId, watcher.id]));
    // The next look tries again, and the machine answers.
    await look(now + 10 * MINUTE);
    expect(await eventually(status, (value) => value === 'front')).toBe('front');
    expect(count(await log(), 'sprinkler_autopilot_started_again')).toBe(startedAgainBefore + 1);
    await move('stop');
  });

  it('never starts a machine that is offline', async () => {
    await setMode('auto');
    await machine.stop();
    await eventually(
      async () => SprinklerDetailSchema.parse((await farmer.get(`/api/sprinkler/${sprinklerId}`)).body).online,
      (online) => !online,
    );
    const sentBefore = count(await log(), 'program_sent');
    await look(Date.now());
    const entries = await log();
    expect(count(entries, 'program_sent')).toBe(sentBefore);
    expect(entries[0]).toMatchObject({
      eventType: 'sprinkler_autopilot_decision',
      event: 'Not started: the machine is offline',
    });
  });
});
