import {
  type LogEntry,
  LogListResponseSchema,
  SprinklerDetailSchema,
  SprinklerListItemSchema,
  topics,
} from '@pivot/contracts';
import type { PivotMachine } from '@pivot/simulator';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect } from 'vitest';
import { sprinklers } from '../../src/modules/sprinklers/sprinklers.table';
import { telemetry } from '../../src/modules/telemetry/telemetry.table';
import { weatherReadings } from '../../src/modules/weather/weather.table';
import { addDays, localDate } from '../../src/time/local-day';
import type { ApiClient } from '../support/api-client';
import { clearRetained } from '../support/broker';
import { startRegisteredMachine } from '../support/devices';
import { grant } from '../support/fixtures';
import { halvesField } from '../support/halves-field';
import type { TestAppWithAdmin } from '../support/test-app';
import { warmDryDay } from '../support/weather-days';

export const TIME_ZONE = 'Europe/Warsaw';
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const CENTRE = { lat: 52.3, lng: 17.2 };
const ARM = 100;
const field = halvesField(CENTRE, ARM);

/** Rules that hold nothing back: no wind or frost limit (no current station here), no rain skip. */
export const OPEN_RULES = { wind: null, frost: null, rainSkip: null };

/** The machine and the people of a test file, filled in before its first test. */
export type MachineDueNow = {
  machine: PivotMachine;
  sprinklerId: number;
  /** Granted control; reads in English. */
  farmer: ApiClient;
  farmerId: number;
  /** Granted watch only. */
  watcher: { id: number };
  watching: ApiClient;
  /** Granted nothing. */
  stranger: ApiClient;
};

/**
 * A real machine (the simulator, through the broker) on the server's own balance, whose East half
 * is due at once (shallow roots on sand) and West half not this season, its program the halves,
 * its pace learned from half an hour of watering three weeks ago (before the season: no water in
 * the balance), and its people. Registers the describe block's hooks; the app must run in
 * TIME_ZONE with short command timeouts.
 */
export function useMachineDueNow(t: TestAppWithAdmin, prefix: string) {
  const due = {} as MachineDueNow;
  const today = localDate(TIME_ZONE, Date.now());

  beforeAll(async () => {
    const id = `${prefix}-${Date.now().toString(36)}`;
    due.machine = await startRegisteredMachine(t.app, id, {
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
    due.sprinklerId = SprinklerListItemSchema.parse(added.body).id;
    await t.database.db.update(sprinklers).set({ areaMap: field.areaMap }).where(eq(sprinklers.id, due.sprinklerId));
    const owner = await t.signedInUser({ language: 'en' });
    due.farmer = owner.client;
    due.farmerId = owner.user.id;
    await grant(t, due.sprinklerId, due.farmerId, 'control');
    const onlyWatching = await t.signedInUser({ language: 'en' });
    due.watcher = onlyWatching.user;
    due.watching = onlyWatching.client;
    await grant(t, due.sprinklerId, due.watcher.id, 'watch');
    due.stranger = (await t.signedInUser()).client;
    const station = `WS-${prefix}`;
    for (let day = 6; day >= 1; day -= 1) {
      await t.database.db.insert(weatherReadings).values(warmDryDay(station, addDays(today, -day), TIME_ZONE));
    }
    const seasons = await due.farmer.put(`/api/sprinkler/${due.sprinklerId}/crop-seasons/`, field.seasons(today));
    expect(seasons.status, JSON.stringify(seasons.body)).toBe(200);
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
    await due.machine.stop();
    await clearRetained(t.app, [topics.presence(due.machine.id), topics.program(due.machine.id)]);
  });

  return {
    due,
    /** The farmer sets the mode, with OPEN_RULES unless told otherwise. */
    setMode: async (mode: 'off' | 'suggest' | 'auto', rules: object = OPEN_RULES) => {
      const response = await due.farmer.put(`/api/sprinkler/${due.sprinklerId}/autopilot/`, { mode, rules });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
    },
    /** The watcher looks now, on the given clock. */
    look: (now: number) => t.app.autopilotWatch.lookOnce(now),
    status: async () =>
      SprinklerDetailSchema.parse((await due.farmer.get(`/api/sprinkler/${due.sprinklerId}`)).body).status,
    /** The farmer's activity log, newest first. */
    log: async (): Promise<LogEntry[]> =>
      LogListResponseSchema.parse((await due.farmer.get('/api/logs/', { query: { pageSize: 100 } })).body).data,
    count: (entries: LogEntry[], eventType: LogEntry['eventType']) =>
      entries.filter((entry) => entry.eventType === eventType).length,
    /** Reads until the value is accepted, for up to 8 s (the machine answers through the broker). */
    eventually: async <T>(read: () => Promise<T>, accept: (value: T) => boolean): Promise<T> => {
      const deadline = Date.now() + 8000;
      for (;;) {
        const value = await read();
        if (accept(value) || Date.now() > deadline) return value;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
  };
}
