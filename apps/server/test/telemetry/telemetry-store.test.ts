import type { TelemetryMessage } from '@pivot/contracts';
import { silentLogger } from '@pivot/simulator';
import { asc, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client';
import { machineState, telemetry } from '../../src/modules/telemetry/telemetry.table';
import {
  findMachineStates,
  insertTelemetry,
  updateLatestState,
  updatePresence,
} from '../../src/modules/telemetry/telemetry.repository';
import { QuarantineService } from '../../src/modules/quarantine/quarantine.service';
import { TelemetryService } from '../../src/modules/telemetry/telemetry.service';
import { createTestDatabase } from '../support/database';
import { countUpdates } from '../support/hot-updates';

function report(machineId: string, ts: number, angle: number): { machineId: string; message: TelemetryMessage } {
  return {
    machineId,
    message: { v: 1, ts, status: 'front', angle, distance: 412.5, speed: 60, pressure: 2.43, flow: 85.2 },
  };
}

describe('storing telemetry', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it('stores every value of a batch to the millisecond, and a report it already has once', async () => {
    const first = [
      report('P1', 1_795_320_000_001, 10.25),
      report('P1', 1_795_320_005_002, 10.5),
      report('P2', 1_795_320_000_001, 99),
    ];
    await insertTelemetry(database.db, first);
    // QoS 1 may deliver a report again, in a later batch.
    await insertTelemetry(database.db, [first[1]!, report('P1', 1_795_320_010_003, 10.75)]);

    const rows = await database.db.select().from(telemetry).orderBy(asc(telemetry.machineId), asc(telemetry.ts));
    expect(rows.map((row) => [row.machineId, row.ts.getTime(), row.angle])).toEqual([
      ['P1', 1_795_320_000_001, 10.25],
      ['P1', 1_795_320_005_002, 10.5],
      ['P1', 1_795_320_010_003, 10.75],
      ['P2', 1_795_320_000_001, 99],
    ]);
    expect(rows[0]).toMatchObject({ status: 'front', distance: 412.5, speed: 60, pressure: 2.43, flow: 85.2 });
  });

  it('takes a machine that reports though its presence never arrived for connected, but not one whose last will came', async () => {
    // A broker may drop the one presence a controller publishes as it connects (Mosquitto does to
    // a subscriber that falls behind); its reports keep coming.
    await updateLatestState(database.db, [report('NO-PRESENCE', 1_795_320_000_000, 10)]);
    await updatePresence(database.db, 'GONE', false, new Date(1_795_320_000_000));
    await updateLatestState(database.db, [report('GONE', 1_795_320_000_500, 10)]);
    await updatePresence(database.db, 'BACK', true, new Date(1_795_320_000_000));
    await updateLatestState(database.db, [report('BACK', 1_795_320_000_500, 10)]);
    const states = await findMachineStates(database.db, ['NO-PRESENCE', 'GONE', 'BACK']);
    expect(Object.fromEntries([...states].map(([machineId, state]) => [machineId, state.online]))).toEqual({
      'NO-PRESENCE': true,
      GONE: false,
      BACK: true,
    });
  });

  it("keeps each machine's newest report of a batch as its state, and a late older one changes nothing", async () => {
    const position = {
      type: 'LineString' as const,
      coordinates: [
        [10.5, 50.25],
        [10.501, 50.251],
      ] as [number, number][],
    };
    const alarmed = report('STATE-B', 1_795_320_005_000, 20);
    await updateLatestState(database.db, [
      report('STATE-A', 1_795_320_005_000, 50),
      { machineId: 'STATE-B', message: { ...alarmed.message, status: 'alarm', alarm: 'pressure_loss', position } },
      // Older than the one before it in the same batch: not the state.
      report('STATE-A', 1_795_320_000_000, 5),
    ]);
    await updateLatestState(database.db, [
      report('STATE-B', 1_795_320_000_000, 1),
      report('STATE-C', 1_795_320_000_000, 7),
    ]);
    const states = await findMachineStates(database.db, ['STATE-A', 'STATE-B', 'STATE-C']);
    const shown = ([...states.values()] as const).map((state) => ({
      machineId: state.machineId,
      online: state.online,
      reportedAt: state.reportedAt?.getTime(),
      status: state.status,
      angle: state.angle,
      alarm: state.alarm,
      position: state.position,
    }));
    expect(shown.sort((a, b) => a.machineId.localeCompare(b.machineId))).toEqual([
      {
        machineId: 'STATE-A',
        online: true,
        reportedAt: 1_795_320_005_000,
        status: 'front',
        angle: 50,
        alarm: null,
        position: null,
      },
      {
        machineId: 'STATE-B',
        online: true,
        reportedAt: 1_795_320_005_000,
        status: 'alarm',
        angle: 20,
        alarm: 'pressure_loss',
        position,
      },
      {
        machineId: 'STATE-C',
        online: true,
        reportedAt: 1_795_320_000_000,
        status: 'front',
        angle: 7,
        alarm: null,
        position: null,
      },
    ]);
    expect(states.get('STATE-A')).toMatchObject({ distance: 412.5, speed: 60, pressure: 2.43, flow: 85.2 });

    // The next report clears the alarm and the position: the state is the newest report as a whole.
    await updateLatestState(database.db, [report('STATE-B', 1_795_320_010_000, 21)]);
    const cleared = (await findMachineStates(database.db, ['STATE-B'])).get('STATE-B');
    expect(cleared).toMatchObject({ status: 'front', angle: 21, alarm: null, position: null });
  });

  it("updates a machine's state where its row is (HOT), its program's sectors and all, so a report leaves no row behind", async () => {
    // A program's sectors make a row about 1.4 kB, as on a farm: on pages filled to the brim the
    // new version of a row would not fit beside the old one, and every update would leave a dead
    // row and a new index entry elsewhere (the table grew by about one row a report).
    const corner = (index: number, turn: number) => [
      10.5 + Math.sin(index + turn) / 997,
      50.25 + Math.cos(index * turn) / 991,
    ];
    const sector = (index: number) => ({
      type: 'Feature',
      properties: { rate: 8 + index / 7 },
      geometry: {
        type: 'Polygon',
        coordinates: [[corner(index, 0), corner(index, 1), corner(index, 2), corner(index, 0)]],
      },
    });
    const programData = {
      type: 'FeatureCollection',
      features: Array.from({ length: 16 }, (_, index) => sector(index)),
    };
    const machines = Array.from({ length: 20 }, (_, index) => `HOT-${index}`);
    await database.db
      .insert(machineState)
      .values(machines.map((machineId) => ({ machineId, programName: 'season', programData: programData as never })));
    const [rowBytes] = await database.db
      .select({ bytes: sql<number>`avg(pg_column_size(${machineState}.*))::int` })
      .from(machineState)
      .where(sql`${machineState.machineId} like 'HOT-%'`);
    expect(rowBytes!.bytes).toBeGreaterThan(1000);

    const counted = await countUpdates(database.db, 'machine_state', async (tx) => {
      await updateLatestState(
        tx,
        machines.map((machineId) => report(machineId, 1_795_320_000_000, 10)),
      );
    });
    expect(counted).toEqual({ updated: machines.length, hot: machines.length });
    const states = await findMachineStates(database.db, machines);
    expect(states.get('HOT-0')).toMatchObject({ angle: 10, programName: 'season', programData });
  });

  it("stores a machine's presence as the messages came, a last will and the reconnect's online right behind it", async () => {
    // The gateway hands each message over as it arrives, without waiting for the one before to be
    // stored: on PostgreSQL two connections could commit the pair in either order.
    const telemetryService = new TelemetryService(
      database.db,
      silentLogger as unknown as FastifyBaseLogger,
      new QuarantineService({ db: database.db, retentionDays: 30 }),
    );
    const machines = Array.from({ length: 60 }, (_, index) => `RECONNECTED-${index}`);
    const at = 1_795_320_000_000;
    const { presence } = telemetryService.handlers;
    await Promise.all(
      machines.flatMap((machineId) => [
        presence({ machineId, deviceId: machineId }, { v: 1, online: false }),
        presence({ machineId, deviceId: machineId }, { v: 1, online: true, ts: at }),
      ]),
    );
    const states = await findMachineStates(database.db, machines);
    expect(machines.filter((machineId) => states.get(machineId)?.online !== true)).toEqual([]);
  });
});
