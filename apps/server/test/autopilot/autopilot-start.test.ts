import { AutopilotPlanSchema, AutopilotSettingsSchema, SprinklerDetailSchema } from '@pivot/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { readMemory } from '../../src/modules/autopilot';
import { incidents } from '../../src/modules/incidents/incidents.table';
import { logEntries } from '../../src/modules/logs/logs.table';
import { useTestApp } from '../support/test-app';
import { HOUR, MINUTE, OPEN_RULES, TIME_ZONE, useMachineDueNow } from './machine-due-now';

/**
 * "Water now as advised" (docs/autopilot.md, "One tap"): a real machine (the simulator, through
 * the broker) whose East half is due at once, started in one call by a person with control.
 */
describe('the one-tap start of the pass the autopilot advises', () => {
  const t = useTestApp({ TIME_ZONE, COMMAND_TIMEOUT_MS: '3000' }, { signInAdmin: true });
  const { due, setMode, look, status, log, count, eventually } = useMachineDueNow(t, 'TAP');
  const settingsUrl = () => `/api/sprinkler/${due.sprinklerId}/autopilot/`;
  const startUrl = () => `/api/sprinkler/${due.sprinklerId}/autopilot/start/`;
  /** Who the machine's command entries name as their actor, oldest first. */
  const commandActors = async () =>
    (
      await t.database.db
        .select({ eventType: logEntries.eventType, event: logEntries.event, actor: logEntries.actorUserId })
        .from(logEntries)
        .where(
          and(
            eq(logEntries.sprinklerId, due.sprinklerId),
            inArray(logEntries.eventType, ['program_sent', 'sprinkler_motion_success']),
          ),
        )
        .orderBy(logEntries.id)
    ).map(({ eventType, event, actor }) => [eventType, event, actor]);

  it('is in the OpenAPI document, a POST tagged autopilot, with its refusals', async () => {
    const response = await due.farmer.get('/api/docs/json');
    const paths = (response.body as { paths: Record<string, Record<string, { tags?: string[] }>> }).paths;
    const operations = paths['/api/sprinkler/{id}/autopilot/start/']!;
    expect(Object.keys(operations)).toEqual(['post']);
    expect(operations.post!.tags).toEqual(['autopilot']);
    for (const code of ['watch_only', 'autopilot_off', 'nothing_due', 'sprinkler_in_alarm', 'start_in_progress']) {
      expect(JSON.stringify(operations.post)).toContain(code);
    }
  });

  it('refuses a user without control, an autopilot that is off, and a pass that is not for now', async () => {
    expect((await due.stranger.post(startUrl())).status).toBe(404);
    const watcher = await due.watching.post(startUrl());
    expect(watcher.status).toBe(403);
    expect(watcher.body).toMatchObject({ code: 'watch_only' });

    // Never set: off.
    const off = await due.farmer.post(startUrl());
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
    const plan = AutopilotPlanSchema.parse((await due.farmer.get(`${settingsUrl()}plan/`)).body);
    expect(plan.now.kind).toBe('wait');
    const notNow = await due.farmer.post(startUrl());
    expect(notNow.status).toBe(409);
    expect(notNow.body).toMatchObject({ code: 'nothing_due' });

    expect(await status()).toBe('stop');
    expect(await commandActors()).toEqual([]);
  });

  it('in suggest, starts the pass in one call, once for two calls at once, the person its actor', async () => {
    await setMode('suggest');
    await look(Date.now());
    expect(count(await log(), 'sprinkler_irrigation_due')).toBe(1);
    const plan = AutopilotPlanSchema.parse((await due.farmer.get(`${settingsUrl()}plan/`)).body);
    expect(plan.now.kind).toBe('start');

    // A double tap (or two tabs): one starts the machine, the other is told a start is under way.
    const [first, second] = await Promise.all([due.farmer.post(startUrl()), due.farmer.post(startUrl())]);
    const answers = [first, second].sort((a, b) => a.status - b.status);
    expect(answers.map((answer) => answer.status)).toEqual([200, 409]);
    expect(['start_in_progress', 'already_watering']).toContain((answers[1]!.body as { code: string }).code);
    expect(await eventually(status, (value) => value === 'front')).toBe('front');

    // The program from the advice, then front: each once, the farmer their actor.
    expect(await commandActors()).toEqual([
      ['program_sent', 'Połówki', due.farmerId],
      ['sprinkler_motion_success', 'front', due.farmerId],
    ]);
    const entries = await log();
    // "Irrigation due" is over as the machine waters; the mode stays suggest, nothing was taken over.
    expect(count(entries, 'sprinkler_irrigation_due_over')).toBe(1);
    expect(
      entries.filter((entry) => entry.eventType === 'sprinkler_autopilot_updated').map((entry) => entry.details),
    ).not.toContain('taken_over');
    expect(AutopilotSettingsSchema.parse((await due.farmer.get(settingsUrl())).body).mode).toBe('suggest');
    const memory = (await readMemory(t.database.db, due.sprinklerId)) as {
      run?: { asked?: boolean; revolutionHours: number; areas: string[] };
      dueAlerted?: boolean;
      startingSince?: number;
    };
    expect(memory.run).toMatchObject({ asked: true, areas: ['Wschód'] });
    expect(memory.run!.revolutionHours).toBeGreaterThan(0);
    expect(memory.dueAlerted).toBeUndefined();
    expect(memory.startingSince).toBeUndefined();

    // Once it waters, another tap is refused as such.
    const again = await due.farmer.post(startUrl());
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'already_watering' });
    expect(await commandActors()).toHaveLength(2);
  });

  it('stops the pass a person asked for once its revolution is done, in suggest too', async () => {
    await look(Date.now() + 10 * MINUTE);
    expect(await status()).toBe('front');
    const memory = (await readMemory(t.database.db, due.sprinklerId)) as {
      run: { startedAt: number; revolutionHours: number };
    };
    await look(memory.run.startedAt + memory.run.revolutionHours * HOUR + MINUTE);
    expect(await eventually(status, (value) => value === 'stop')).toBe('stop');
    // The server's own stop: no actor.
    expect((await commandActors()).at(-1)).toEqual(['sprinkler_motion_success', 'stop', null]);
    expect(((await readMemory(t.database.db, due.sprinklerId)) as { run?: unknown }).run).toBeUndefined();
  });

  it('refuses a machine with an open safety incident, and sends nothing', async () => {
    await setMode('suggest');
    const [incident] = await t.database.db
      .insert(incidents)
      .values({ machineId: due.machine.id, kind: 'unexpected_stop', beganAt: new Date() })
      .returning({ id: incidents.id });
    try {
      const before = (await commandActors()).length;
      const refused = await due.farmer.post(startUrl());
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ code: 'sprinkler_in_alarm' });
      expect(await commandActors()).toHaveLength(before);
    } finally {
      await t.database.db.delete(incidents).where(eq(incidents.id, incident!.id));
    }
  });

  it('refuses a machine that is offline, and sends nothing', async () => {
    await due.machine.stop();
    await eventually(
      async () => SprinklerDetailSchema.parse((await due.farmer.get(`/api/sprinkler/${due.sprinklerId}`)).body).online,
      (online) => !online,
    );
    const before = (await commandActors()).length;
    const offline = await due.farmer.post(startUrl());
    expect(offline.status).toBe(409);
    expect(offline.body).toMatchObject({ code: 'sprinkler_offline' });
    expect(await commandActors()).toHaveLength(before);
  });
});
