/**
 * A dealer's server seen by farms (issue 36): `--farms` farms (300) of `--machinesPerFarm`
 * machines (33) at rest, stored straight in the database, each farm with an owner, two managers
 * and `--membersPerFarm` members (10) granted three of its machines each. Asked one request at a
 * time, `--requests` (200) each, p50 and p95 of what a farm's manager, a farm's member and the
 * server's administrator read most: the machines table's first page, the whole list, the farms
 * list, a farm's page and a machine's page, and the table switched to one farm; and
 * `--dealers` dealers (3) of `--usersPerDealer` members (10), each granted control of a third of
 * the farms, whose member reads the table, a farm's, the whole list and the fleet view (one
 * machine in ten with an alarm open, which it counts). Target:
 * p95 < 500 ms each, the goal the single-farm runs hold (issue 38). Before farms, a farm's
 * manager had grants and nothing else: the member's figures are that path.
 *
 * `--liveMachines` of the machines (all of them by default; 0 for none) are a simulated fleet's
 * controllers in a process of their own, registered as the administrator does and reporting every
 * `--telemetrySeconds` (30) while the reads are measured, so the reads share the server with the
 * reports' ingestion, the live state's writes and the list streams' events, as on a dealer's
 * server at work.
 */
import { randomBytes } from 'node:crypto';
import { sprinklersEndpoints } from '@pivot/contracts';
import type { HttpSession } from '@pivot/e2e/support/http-session';
import { siteId } from '@pivot/simulator';
import { type SQL, sql } from 'drizzle-orm';
import { type BenchServer, startBenchServer } from './support/bench-server';
import { insertRestingMachines } from './support/bulk-insert';
import { ChildScript } from './support/child-script';
import { readOptions } from './support/cli';
import type { FleetEvent, FleetRequest } from './support/fleet-process';
import { formatNumber, printFigure, printSection, printTargeted, printTitle } from './support/report';
import { runBenchmark } from './support/run';
import { sleep, summarise, timeSequentially } from './support/stats';

const TARGET_P95_MS = 500;

const options = readOptions(
  {
    farms: 300,
    machinesPerFarm: 33,
    membersPerFarm: 10,
    dealers: 3,
    usersPerDealer: 10,
    requests: 200,
    liveMachines: Number.POSITIVE_INFINITY,
    telemetrySeconds: 30,
  },
  ['liveMachines'],
);

/** How long the live fleet reports before the reads are measured: every machine's first reports are in. */
const LIVE_WARM_UP_MS = 45_000;

type LiveFleet = { child: ChildScript<FleetRequest, FleetEvent>; machineIds: string[] };

/**
 * The first `count` machines (REST-1…) made a simulated fleet's: given its IDs, registered as the
 * administrator registers controllers, and started in a process of their own.
 */
async function startLiveFleet(server: BenchServer, count: number): Promise<LiveFleet> {
  const { db } = server.app.database;
  const idPrefix = `FARMS${randomBytes(3).toString('hex')}-`;
  // siteId's numbering: the prefix, SIM- and the number in four digits at least.
  const liveId = (column: SQL) => sql`${idPrefix} || 'SIM-' || lpad(substring(${column} from 6), 4, '0')`;
  const isLive = (column: SQL) => sql`substring(${column} from 6)::int <= ${count}::int`;
  await db.execute(
    sql`update sprinklers set internal_id = ${liveId(sql`internal_id`)} where ${isLive(sql`internal_id`)}`,
  );
  await db.execute(
    sql`update machine_state set machine_id = ${liveId(sql`machine_id`)} where ${isLive(sql`machine_id`)}`,
  );
  const expectedIds = Array.from({ length: count }, (_, index) => siteId(idPrefix, 'SIM', index + 1));
  const credentials = await server.registerControllers(expectedIds);
  const child = ChildScript.start<FleetRequest, FleetEvent>(new URL('support/fleet-process.ts', import.meta.url));
  const { machineIds } = await child.ask(
    {
      type: 'start',
      brokerUrl: server.app.mqttUrl,
      count,
      idPrefix,
      telemetryMs: options.telemetrySeconds * 1000,
      credentials,
    },
    'started',
  );
  return { child, machineIds };
}

/** The reports the server received from the live fleet so far. */
const reportsOf = (server: BenchServer, fleet: LiveFleet | undefined) =>
  fleet?.machineIds.reduce((sum, id) => sum + server.app.telemetry.received(id), 0) ?? 0;

// Half an hour: seeding 9,900 machines and connecting as many controllers takes most of it on a
// busy two-core machine.
runBenchmark('farms', 1_800_000, async () => {
  const server = await startBenchServer(options);
  let fleet: LiveFleet | undefined;
  try {
    const { db } = server.app.database;
    const machines = options.farms * options.machinesPerFarm;
    await insertRestingMachines(db, machines);
    // Farm f holds the machines REST-(f·k+1)…REST-(f·k+k), in id order.
    await db.execute(
      sql`insert into farms (name) select 'Farm ' || f from generate_series(1, ${options.farms}::int) as f`,
    );
    await db.execute(sql`
      insert into farm_machines (sprinkler_id, farm_id)
      select s.id, f.id from sprinklers s
      join farms f on f.name = 'Farm ' || ((substring(s.internal_id from 6)::int - 1) / ${options.machinesPerFarm}::int + 1)`);
    // Per farm: an owner, two managers and the members, each member granted three machines.
    const perFarm = 3 + options.membersPerFarm;
    await db.execute(sql`
      insert into users (first_name, last_name, email, activated_at)
      select 'Person', 'No ' || n, 'person' || n || '@farms.bench', now()
      from generate_series(1, ${options.farms * perFarm}::int) as n`);
    await db.execute(sql`
      insert into farm_members (farm_id, user_id, role)
      select f.id, u.id, case when (n - 1) % ${perFarm}::int = 0 then 'owner'
                               when (n - 1) % ${perFarm}::int < 3 then 'manager' else 'member' end
      from (select id, substring(email from 7 for position('@' in email) - 7)::int as n from users
            where email like 'person%@farms.bench') as u
      join farms f on f.name = 'Farm ' || ((n - 1) / ${perFarm}::int + 1)`);
    await db.execute(sql`
      insert into sprinkler_access (sprinkler_id, user_id, level)
      select fm.sprinkler_id, m.user_id, case when k = 0 then 'control' else 'watch' end
      from farm_members m
      cross join generate_series(0, 2) as k
      join lateral (select sprinkler_id from farm_machines where farm_id = m.farm_id
                    order by sprinkler_id offset (m.user_id + k) % ${options.machinesPerFarm}::int limit 1) fm on true
      where m.role = 'member'
      on conflict do nothing`);
    // Each dealer has its members and is granted control of every farm whose number it divides
    // into evenly: with 3 dealers, a hundred farms each, 3,300 machines.
    await db.execute(
      sql`insert into dealers (name) select 'Dealer ' || d from generate_series(1, ${options.dealers}::int) as d`,
    );
    await db.execute(sql`
      insert into users (first_name, last_name, email, activated_at)
      select 'Technician', 'No ' || n, 'technician' || n || '@farms.bench', now()
      from generate_series(1, ${options.dealers * options.usersPerDealer}::int) as n`);
    await db.execute(sql`
      insert into dealer_members (dealer_id, user_id)
      select d.id, u.id from users u
      join dealers d on d.name = 'Dealer ' || ((substring(u.email from 11 for position('@' in u.email) - 11)::int - 1) / ${options.usersPerDealer}::int + 1)
      where u.email like 'technician%@farms.bench'`);
    await db.execute(sql`
      insert into dealer_grants (farm_id, dealer_id, level, all_machines)
      select f.id, d.id, 'control', true from farms f
      join dealers d on (substring(f.name from 6)::int - 1) % ${options.dealers}::int + 1 = substring(d.name from 8)::int`);
    // One machine in ten has an alarm open: the fleet view counts each farm's open incidents.
    await db.execute(sql`
      insert into incidents (machine_id, kind, began_at, detail)
      select internal_id, 'alarm', now(), 'E12' from sprinklers where id % 10 = 0`);
    await db.execute(sql`analyze`);
    const live = Math.min(options.liveMachines, machines);
    if (live > 0) fleet = await startLiveFleet(server, live);

    // The measured people: a manager and a member of the middle farm, and the administrator.
    const farmId = Math.ceil(options.farms / 2);
    const rowsOf = async <Row>(query: SQL) => ((await db.execute(query)) as unknown as { rows: Row[] }).rows;
    const [farm] = await rowsOf<{ id: number }>(sql`select id from farms where name = ${`Farm ${farmId}`}`);
    const manager = await server.createUser();
    const member = await server.createUser();
    await db.execute(
      sql`insert into farm_members (farm_id, user_id, role) values (${farm!.id}, ${manager.id}, 'manager'), (${farm!.id}, ${member.id}, 'member')`,
    );
    const [machine] = await rowsOf<{ id: number }>(
      sql`select sprinkler_id as id from farm_machines where farm_id = ${farm!.id} order by sprinkler_id limit 1`,
    );
    await db.execute(sql`insert into sprinkler_access (sprinkler_id, user_id, level) select sprinkler_id, ${member.id}, 'control'
      from farm_machines where farm_id = ${farm!.id} order by sprinkler_id limit 3`);

    const technician = await server.createUser();
    await db.execute(
      sql`insert into dealer_members (dealer_id, user_id) select id, ${technician.id} from dealers where name = 'Dealer 1'`,
    );
    const [dealtFarm] = await rowsOf<{ id: number }>(sql`select g.farm_id as id from dealer_grants g
      join dealers d on d.id = g.dealer_id where d.name = 'Dealer 1' order by g.farm_id limit 1`);

    printTitle("Farms at a dealer's scale: what a farm's people read, one request at a time", {
      database: server.setting.database,
      fleet: `${formatNumber(machines)} machines in ${options.farms} farms of ${options.machinesPerFarm}, ${
        live > 0
          ? `${formatNumber(live)} of them simulated controllers reporting every ${options.telemetrySeconds} s`
          : 'at rest'
      }`,
      people: `${formatNumber(options.farms * perFarm)} in farms (an owner, two managers, ${options.membersPerFarm} members with three grants each a farm)`,
      dealers: `${options.dealers}, each with ${options.usersPerDealer} members and control of ${Math.ceil(options.farms / options.dealers)} farms (the farms dealt in turn)`,
      requests: `${options.requests} of each, one after another, after 20 of warm-up`,
    });

    if (fleet) await sleep(LIVE_WARM_UP_MS);
    const measuring = { reports: reportsOf(server, fleet), at: Date.now() };

    const page = `/api${sprinklersEndpoints.page.path}?pageSize=25`;
    const farmCalls = [
      ['table page', page],
      ['switched to the farm', `${page}&farm=${farm!.id}`],
      ['whole list', '/api/sprinkler/'],
      ['farms', '/api/farm/'],
      ['farm page', `/api/farm/${farm!.id}/`],
      ['machine page', `/api/sprinkler/${machine!.id}/`],
    ] as const;
    const readers: [string, HttpSession, readonly (readonly [string, string])[]][] = [
      ["a farm's manager (its 33 machines by role)", await server.signIn(manager.email), farmCalls],
      ["a farm's member (three grants)", await server.signIn(member.email), farmCalls],
      ['the administrator (every machine, every farm)', await server.signInAdmin(), farmCalls],
      [
        `a dealer's member (${formatNumber(Math.ceil(options.farms / options.dealers) * options.machinesPerFarm)} machines of ${Math.ceil(options.farms / options.dealers)} farms)`,
        await server.signIn(technician.email),
        [
          ['table page', page],
          ['switched to a farm', `${page}&farm=${dealtFarm!.id}`],
          ['whole list', '/api/sprinkler/'],
          ['fleet view', '/api/dealer/fleet/'],
        ],
      ],
    ];
    for (const [who, session, calls] of readers) {
      printSection(who);
      for (const [label, path] of calls) {
        const ask = async () => {
          const answer = await session.call('GET', path);
          // A member may not read the farm's page: its 403 is the answer measured.
          if (answer.status !== 200 && !(answer.status === 403 && path.startsWith('/api/farm/'))) {
            throw new Error(`${who}: ${path} answered ${answer.status}`);
          }
        };
        await timeSequentially(20, ask);
        const latency = summarise(await timeSequentially(options.requests, ask));
        printTargeted(
          `${label} p95 (p50 ${latency.p50.toFixed(1)} ms)`,
          latency.p95,
          'ms',
          { below: TARGET_P95_MS },
          1,
        );
      }
    }
    if (fleet) {
      const reports = reportsOf(server, fleet) - measuring.reports;
      printSection('the live fleet while the reads were measured');
      printFigure(
        'reports received by the server',
        `${formatNumber(reports)} (${formatNumber((reports / (Date.now() - measuring.at)) * 1000)} reports/s)`,
      );
    }
  } finally {
    if (fleet) {
      await fleet.child.ask({ type: 'stop', forget: server.external.broker }, 'stopped');
      await fleet.child.end();
    }
    await server.close();
  }
});
