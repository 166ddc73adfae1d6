import { AutopilotPlanSchema, SprinklerDetailSchema } from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import { claimStart, readMemory, saveMemory } from '../../src/modules/autopilot';
import { useTestApp } from '../support/test-app';
import { HOUR, MINUTE, TIME_ZONE, useMachineDueNow } from './machine-due-now';

/**
 * The watcher on a real machine (the simulator, through the broker), on the server's own balance:
 * its East half is due at once (shallow roots on sand), its West half not this season.
 */
describe('the autopilot at work', () => {
  const t = useTestApp({ TIME_ZONE, COMMAND_TIMEOUT_MS: '3000' }, { signInAdmin: true });
  const { due, setMode, look, status, log, count, eventually } = useMachineDueNow(t, 'AUTO');

  const move = async (motion: 'front' | 'stop') => {
    const response = await due.farmer.post(`/api/sprinkler/${due.sprinklerId}/motion`, { motion });
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
    const memory = (await readMemory(t.database.db, due.sprinklerId)) as { run?: { revolutionHours: number } };
    expect(memory.run?.revolutionHours).toBeGreaterThan(0);

    // A look while it waters starts nothing again, and tells the log nothing new but "watering".
    await look(now + 10 * MINUTE);
    const after = await log();
    expect(count(after, 'program_sent')).toBe(1);
    expect(after[0]).toMatchObject({ eventType: 'sprinkler_autopilot_decision', event: 'Watering: nothing to change' });
  });

  it('stops the machine once its revolution is done', async () => {
    const memory = (await readMemory(t.database.db, due.sprinklerId)) as {
      run: { startedAt: number; revolutionHours: number };
    };
    await look(memory.run.startedAt + memory.run.revolutionHours * HOUR + MINUTE);
    expect(await eventually(status, (value) => value === 'stop')).toBe('stop');
    expect((await log())[0]).toMatchObject({ eventType: 'sprinkler_motion_success', event: 'stop' });
    expect(((await readMemory(t.database.db, due.sprinklerId)) as { run?: unknown }).run).toBeUndefined();
  });

  it('of two claims of one start, one wins; a start left claimed by a crash is taken up once stale', async () => {
    const now = Date.now();
    const claims = await Promise.all([
      claimStart(t.database.db, due.sprinklerId, now, now - 5 * MINUTE, null),
      claimStart(t.database.db, due.sprinklerId, now, now - 5 * MINUTE, null),
    ]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    // As a server killed between its claim and front leaves it: claimed, the pass its own, the machine at rest.
    const run = { startedAt: now, revolutionHours: 20, areas: ['Wschód'] };
    await saveMemory(t.database.db, due.sprinklerId, { startingSince: now, run });
    const sentBefore = count(await log(), 'program_sent');
    // The claim is young (its commands could still be waited for, 3 s each): nothing is done.
    await look(now + 10_000);
    expect(count(await log(), 'program_sent')).toBe(sentBefore);
    // Its claim refused, the look leaves the memory as the claiming instance keeps it: the pass is
    // still the autopilot's when that instance's front goes through (or the claim goes stale).
    expect(await readMemory(t.database.db, due.sprinklerId)).toMatchObject({ startingSince: now, run });
    // Nor when it goes stale while the look reads the machine: the next look takes it up, and tells of it.
    await look(now + 22_995);
    expect(count(await log(), 'program_sent')).toBe(sentBefore);
    expect(await status()).toBe('stop');
    // Once stale (both timeouts and a margin: 23 s), the start cut short is told, and its pass is
    // not taken as watered. The machine leaves the program unanswered: this start fails too.
    due.machine.misbehaveNext('missing');
    await look(now + 30_000);
    const failed = (await log()).filter((entry) => entry.eventType === 'sprinkler_autopilot_start_failed');
    expect(failed.map((entry) => entry.event)).toContain('interrupted');
    expect(await status()).toBe('stop');
    const forgotten = (await readMemory(t.database.db, due.sprinklerId)) as {
      watered?: unknown;
      startingSince?: number;
    };
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
    const kept = await readMemory(db, due.sprinklerId);
    const now = Date.now() + 30 * MINUTE;
    await saveMemory(db, due.sprinklerId, {});
    // A tap claims and keeps its pass...
    expect(await claimStart(db, due.sprinklerId, now, now - 5 * MINUTE, null)).toBe(true);
    expect(
      await saveMemory(db, due.sprinklerId, { run: { startedAt: now, revolutionHours: 20, areas: [] } }, null),
    ).toBe(true);
    // ...while a look that read the memory before it keeps what it decided, or claims a start: refused.
    expect(await saveMemory(db, due.sprinklerId, { dueAlerted: true }, null)).toBe(false);
    expect(await claimStart(db, due.sprinklerId, now + 6 * MINUTE, now + MINUTE, null)).toBe(false);
    expect(await readMemory(db, due.sprinklerId)).toEqual({ run: { startedAt: now, revolutionHours: 20, areas: [] } });
    // Who read that pass writes on.
    expect(await saveMemory(db, due.sprinklerId, { watered: { at: now, areas: [] } }, now)).toBe(true);
    await saveMemory(db, due.sprinklerId, kept);
  });

  it('in suggest, tells those who control the machine that irrigation is due, until it waters', async () => {
    await setMode('suggest');
    const now = Date.now() + HOUR;
    await look(now);
    expect(await status()).toBe('stop');
    const told = (await log()).find((entry) => entry.eventType === 'sprinkler_irrigation_due')!;
    expect(told.event).toBe('Wschód');
    const recipients = await t.app.alerts.recipientsOn(t.database.db, [due.sprinklerId]);
    expect(recipients(due.sprinklerId, 'irrigation_due', 'in_app')).toContain(due.farmerId);
    expect(recipients(due.sprinklerId, 'irrigation_due', 'in_app')).not.toContain(due.watcher.id);
    // Water stress, by contrast, reaches whoever watches.
    expect(recipients(due.sprinklerId, 'water_stress', 'in_app')).toContain(due.watcher.id);
    // A second look opens nothing more; the farmer's start ends it.
    await look(now + 10 * MINUTE);
    expect(count(await log(), 'sprinkler_irrigation_due')).toBe(1);
    await move('front');
    await look(now + 20 * MINUTE);
    expect(count(await log(), 'sprinkler_irrigation_due_over')).toBe(1);
    await move('stop');
  });

  it('plans the coming passes for whoever sees the machine, in their words, and for no one else', async () => {
    const planUrl = `/api/sprinkler/${due.sprinklerId}/autopilot/plan/`;
    expect((await due.stranger.get(planUrl)).status).toBe(404);
    const answer = await due.watching.get(planUrl);
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
    due.machine.misbehaveNext('missing');
    const now = Date.now() + 2 * HOUR;
    const startedAgainBefore = count(await log(), 'sprinkler_autopilot_started_again');
    // The program is not answered: the command's timeout (3 s), then the incident.
    await look(now);
    const failed = (await log()).find((entry) => entry.eventType === 'sprinkler_autopilot_start_failed')!;
    expect(failed.event).toBe('unanswered');
    expect(await status()).toBe('stop');
    const recipients = await t.app.alerts.recipientsOn(t.database.db, [due.sprinklerId]);
    expect(recipients(due.sprinklerId, 'start_failed', 'in_app')).toEqual(
      expect.arrayContaining([due.farmerId, due.watcher.id]),
    );
    // The next look tries again, and the machine answers.
    await look(now + 10 * MINUTE);
    expect(await eventually(status, (value) => value === 'front')).toBe('front');
    expect(count(await log(), 'sprinkler_autopilot_started_again')).toBe(startedAgainBefore + 1);
    await move('stop');
  });

  it('never starts a machine that is offline', async () => {
    await setMode('auto');
    await due.machine.stop();
    await eventually(
      async () => SprinklerDetailSchema.parse((await due.farmer.get(`/api/sprinkler/${due.sprinklerId}`)).body).online,
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
