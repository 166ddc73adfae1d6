import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../src/db/client';
import { findOpenIncidents } from '../../src/modules/incidents/incidents.repository';
import { anotherIncidentWatch, stopOwnLooks } from '../support/incident-watch';
import { type TestApp, createTestApp } from '../support/test-app';

const FLEET = 300;
const PREFIX = `MASS-${Date.now().toString(36)}`;
const STATEMENTS = ['select', 'insert', 'update', 'delete', 'execute'];

/**
 * The database as the watch's code uses it, counting the statements it builds: each call of
 * select, insert, update, delete or execute, on the database or in one of its transactions.
 */
function countingStatements(db: Database): { db: Database; count: () => number } {
  let count = 0;
  const counting = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(object, property, receiver) {
        const value = Reflect.get(object, property, receiver) as unknown;
        if (typeof value !== 'function') return value;
        if (property === 'transaction') {
          return (work: (tx: object) => Promise<unknown>, config?: unknown) =>
            value.call(object, (tx: object) => work(counting(tx)), config);
        }
        if (typeof property === 'string' && STATEMENTS.includes(property)) count += 1;
        return value.bind(object);
      },
    });
  return { db: counting(db), count: () => count };
}

/**
 * Issue 38: at 10,000 machines a look that found the fleet offline (controllers connected and
 * silent, as after a long outage) opened each incident with a dozen statements of its own (the
 * incident, its log entry, who hears of it by e-mail, push and webhook), 800 s in one
 * transaction while every alarm waited. A look now writes each kind of change for all machines at
 * once: the same few statements for one incident or for hundreds.
 */
describe('a look that finds hundreds of incidents at once', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    await stopOwnLooks(t);
    await vi.waitFor(() => expect(t.app.gateway.listeningSince).not.toBeNull(), { timeout: 30_000 });
    const farmer = await t.buildUser();
    await t.database.db.execute(sql`
      insert into sprinklers (internal_id, name, lat, lng, arm_length)
      select ${PREFIX} || '-' || n, 'Pivot ' || n, 52.4, 16.9, 300 from generate_series(0, ${FLEET - 1}) as n`);
    await t.database.db.execute(sql`
      insert into sprinkler_access (sprinkler_id, user_id, level)
      select id, ${farmer.id}, 'watch' from sprinklers where internal_id like ${`${PREFIX}-%`}`);
    // Connected, at rest and silent: nothing heard from any of them since they connected.
    await t.database.db.execute(sql`
      insert into machine_state (machine_id, online, presence_at, status, changed_at)
      select ${PREFIX} || '-' || n, false, now() - interval '1 minute', 'stop', now() - interval '1 minute'
      from generate_series(0, ${FLEET - 1}) as n`);
  });
  afterAll(() => t.close());

  it('opens every one, logs it and queues its alerts, in the statements a single incident takes', async () => {
    const counted = countingStatements(t.database.db);
    const watch = anotherIncidentWatch(t, counted.db);
    // A minute after the server began to listen: every machine has been silent long enough.
    await watch.lookOnce(t.app.gateway.listeningSince! + 60_000);
    const open = await findOpenIncidents(t.database.db);
    const offline = [...open].filter(([machineId, kinds]) => machineId.startsWith(PREFIX) && kinds.has('offline'));
    expect(offline).toHaveLength(FLEET);
    const countOf = async (query: ReturnType<typeof sql>) =>
      ((await t.database.db.execute(query)) as unknown as { rows: { count: number }[] }).rows[0]!.count;
    const machines = `${PREFIX}-%`;
    expect(
      await countOf(sql`select count(*)::int as count from log_entries where sprinkler_internal_id like ${machines}`),
    ).toBe(FLEET);
    // The farmer granted every machine hears of each by e-mail and push, as the administrators do.
    const queued = await countOf(sql`
      select count(*)::int as count from alert_deliveries join log_entries on log_entries.id = log_entry_id
      where sprinkler_internal_id like ${machines}`);
    expect(queued).toBeGreaterThanOrEqual(FLEET * 2);
    // A dozen statements an incident would be thousands.
    expect(counted.count()).toBeLessThan(40);
  });
});
