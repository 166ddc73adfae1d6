import {
  AutopilotPlanSchema,
  type CommandMessage,
  type LatLng,
  type LogEntry,
  LogListResponseSchema,
  PROTOCOL_VERSION,
  SprinklerDetailSchema,
  type WeatherMessage,
  topics,
} from '@pivot/contracts';
import type { MqttClient } from 'mqtt';
import { expect, inject } from 'vitest';
import { halvesField } from '../../support/halves-field';
import type { HttpSession } from '../../support/http-session';
import type { ServerProcess } from '../../support/server-process';
import { startWitnessedMachine } from './commands';
import { recordFigures } from './figures';
import {
  COMMAND_TIMEOUT_MS,
  queryDatabase,
  signInAsAdmin,
  startEmbeddedProduct,
  startProductOnMosquitto,
  until,
} from './product';

/** Where the chaos suite's machines stand (as `startWitnessedMachine` places them), and their arm. */
const CENTRE: LatLng = { lat: 52.32, lng: 17.04 };
const ARM = 300;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** The days of weather and of the season before today: the balance ends with yesterday. */
const SEASON_DAYS = 6;

/**
 * The autopilot looks every second: a restarted server looks again at once, and two instances
 * look at the machine many times over a few seconds.
 */
export const AUTOPILOT_ENV = { AUTOPILOT_LOOK_SECONDS: '1' } as const;
/** Rules that hold nothing back: no wind or frost limit (they need a current station reading), no rain skip, every hour. */
const OPEN_RULES = { wind: null, frost: null, rainSkip: null };

/** The machine's field: its program's halves, the crop areas under them and their seasons. */
const FIELD = halvesField(CENTRE, ARM * 1.2);

/** A day before today as the API writes it (dd.mm.yyyy), by the server's calendar (Europe/Warsaw, its default). */
function daysAgo(days: number): string {
  const [year, month, day] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Warsaw' })
    .format(Date.now() - days * DAY_MS)
    .split('-');
  return `${day}.${month}.${year}`;
}

/**
 * The machine's weather station, wired to it: at once, an hourly reading of a warm dry day for
 * each of the past days (a controller sends what it buffered; the server takes a week back), so
 * that the balance has the season's days. Then nothing: the rules ask for no current reading.
 */
class PastWeather {
  constructor(private readonly machineId: string) {}

  start(client: MqttClient): void {
    const now = Date.now();
    const topic = topics.weather(this.machineId, `${this.machineId}-WS`);
    for (let hoursAgo = (SEASON_DAYS + 1) * 24 - 2; hoursAgo >= 1; hoursAgo -= 1) {
      const ts = now - hoursAgo * HOUR_MS;
      // The sun by UTC: noon an hour early in Poland, which the balance does not mind.
      const daylight = Math.max(0, Math.sin(((new Date(ts).getUTCHours() - 5) / 15) * Math.PI));
      const reading: WeatherMessage = {
        v: PROTOCOL_VERSION,
        ts,
        lat: CENTRE.lat + 0.001,
        lng: CENTRE.lng,
        temperature: 14 + 14 * daylight,
        humidity: 85 - 45 * daylight,
        rain: 0,
        wind: 2,
        solarRadiation: 800 * daylight,
      };
      client.publish(topic, JSON.stringify(reading), { qos: 1 });
    }
  }

  stop(): void {
    // It published its past at once; nothing runs.
  }
}

export type DueMachine = Awaited<ReturnType<typeof startDueMachine>>;

/**
 * A simulated pivot added and witnessed, whose East half is due now (shallow roots on sand, a
 * week of warm dry days) and whose West half is not this season (roots 3 m deep on loam), as the
 * server tests' halves field and the browser test of the program from the advice make it: its
 * program of the two halves loaded, its arm over the East half, its pace set (depth and hours per
 * circle at 100 %: a standing machine pumps nothing to learn it from), its autopilot off. Ready
 * once the plan says the autopilot would start it now.
 */
export async function startDueMachine(admin: HttpSession, brokerUrl: string, prefix: string) {
  const started = await startWitnessedMachine(admin, brokerUrl, prefix, {
    angle: 10,
    program: { name: 'Połówki', programData: FIELD.programData },
    programProcessingMs: 200,
    movingTelemetryMs: 1000,
    restingTelemetryMs: 2000,
  });
  started.machine.speakFor(new PastWeather(started.machineId));
  const { sprinklerId } = started;
  const calls = [
    await admin.call('PATCH', `/api/sprinkler/${sprinklerId}/`, { areaMap: FIELD.areaMap }),
    await admin.call('PUT', `/api/sprinkler/${sprinklerId}/crop-seasons/`, FIELD.seasons(daysAgo(SEASON_DAYS))),
    await admin.call('PATCH', `/api/sprinkler/${sprinklerId}/application-depth/`, {
      depthAtFullSpeed: 5,
      hoursPerCircle: 20,
    }),
  ];
  for (const call of calls) expect(call.status, JSON.stringify(call.body)).toBe(200);
  // The station's past is stored in batches: the plan says "start" once the balance has its days.
  let plan: unknown;
  const due = await until(async () => {
    plan = (await admin.call('GET', `/api/sprinkler/${sprinklerId}/autopilot/plan/`)).body;
    return AutopilotPlanSchema.safeParse(plan).data?.now.kind === 'start';
  }, 30_000);
  expect(due, `the machine is due now; the plan: ${JSON.stringify(plan)}`).toBe(true);
  return started;
}

/** Turns the machine's autopilot to auto, its rules holding nothing back. */
export async function turnToAuto(admin: HttpSession, sprinklerId: number): Promise<void> {
  const response = await admin.call('PUT', `/api/sprinkler/${sprinklerId}/autopilot/`, {
    mode: 'auto',
    rules: OPEN_RULES,
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
}

/** Until the API shows the machine going front; whether it did in time. */
export function untilWatering(admin: HttpSession, sprinklerId: number, timeoutMs: number): Promise<boolean> {
  return until(async () => {
    const response = await admin.call('GET', `/api/sprinkler/${sprinklerId}/`);
    return response.status === 200 && SprinklerDetailSchema.parse(response.body).status === 'front';
  }, timeoutMs);
}

/** The machine's entries of the activity log, oldest first. */
export async function machineLog(admin: HttpSession, machineId: string): Promise<LogEntry[]> {
  const response = await admin.call('GET', '/api/logs/?pageSize=100');
  return LogListResponseSchema.parse(response.body)
    .data.filter((entry) => entry.sprinklerInternalId === machineId)
    .reverse();
}

/** The log's entries in a line each: event type, event, details. */
export function describeLog(entries: LogEntry[]): string {
  return entries
    .map((entry) => `${entry.eventType} ${entry.event}${entry.details ? ` (${entry.details})` : ''}`)
    .join('; ');
}

/**
 * What the database holds of the machine's autopilot and commands: its memory (whether a start
 * is still claimed, the pass it started), and its program and motion commands with their outcomes.
 */
export async function startRecords(server: ServerProcess, machine: { machineId: string; sprinklerId: number }) {
  const [settings] = await queryDatabase<{ memory: { startingSince?: number; run?: unknown } }>(
    server,
    'select memory from autopilot_settings where sprinkler_id = $1',
    [machine.sprinklerId],
  );
  const commands = await queryDatabase<{ type: string; event: string; outcome: string }>(
    server,
    `select type, event, outcome from machine_commands where machine_id = $1 and type in ('program', 'motion') order by sent_at`,
    [machine.machineId],
  );
  return { memory: settings?.memory ?? {}, commands };
}

/**
 * A start cut short is taken up once its claim is stale (docs/autopilot.md, "Two instances, a
 * crash": both commands' timeouts, the clocks' tolerance and 15 s), at the next look after it.
 */
export const CLAIM_STALE_MS = 2 * (COMMAND_TIMEOUT_MS + 1000) + 15_000;
/** A command left pending by the killed server is settled within its timeout, 5 s and the 10 s round of settling. */
export const SETTLED_MS = COMMAND_TIMEOUT_MS + 20_000;
/** Looks (a second apart) after the start, in which no second start may come. */
export const LOOKS_AFTER = 5_000;

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const count = (entries: LogEntry[], eventType: LogEntry['eventType'], event?: string) =>
  entries.filter((entry) => entry.eventType === eventType && (event === undefined || entry.event === event)).length;

/** What the machine carried out, and what the database and the log say of its start. */
export async function startOutcome(server: ServerProcess, admin: HttpSession, due: DueMachine) {
  const log = await machineLog(admin, due.machineId);
  // PGlite is read once the server has stopped (a clean stop).
  if (!server.databaseUrl) await server.terminate();
  const records = await startRecords(server, due);
  return {
    starts: due.witness.carriedOut('motion', 'front').length,
    programs: due.witness.carriedOut('program').length,
    /** Delivered, carried out or not (too late, refused). */
    received: {
      fronts: due.witness.received('motion', 'front').length,
      programs: due.witness.received('program').length,
    },
    log,
    ...records,
    pending: records.commands.filter((command) => command.outcome === 'pending').length,
  };
}
export type StartOutcome = Awaited<ReturnType<typeof startOutcome>>;

export async function reportStart(key: string, scenario: string, outcome: StartOutcome, note: string) {
  await recordFigures(inject('chaosFiguresDir'), {
    key,
    scenario,
    commands: outcome.commands.length,
    executedTwice: Math.max(0, outcome.starts - 1),
    withoutOutcome: outcome.pending,
    starts: outcome.starts,
    programs: outcome.programs,
    note: `${note}; received: ${outcome.received.programs} programs, ${outcome.received.fronts} front; commands: ${outcome.commands.map((command) => `${command.type} ${command.event} ${command.outcome}`).join(', ')}; log: ${describeLog(outcome.log)}`,
  });
}

/** Nothing half-made: no claim left, the pass the autopilot's (it stops it at its revolution's end), every command settled. */
export function expectWholeStart(outcome: StartOutcome) {
  expect(outcome.starts, 'the machine started (front carried out)').toBe(1);
  expect(outcome.memory.startingSince, 'a start still claimed').toBeUndefined();
  expect(outcome.memory.run, "the pass, the autopilot's in its memory").toBeDefined();
  expect(outcome.pending, 'commands without an outcome').toBe(0);
  // A command the killed server waited on may be logged as of unknown outcome first, then as
  // confirmed once the machine's answer reaches the restarted server: the start's last word is its success.
  expect(count(outcome.log, 'sprinkler_motion_success', 'front'), 'the start in the log').toBe(1);
  expect(outcome.log.findLast((entry) => entry.eventType.startsWith('sprinkler_motion_'))?.eventType).toBe(
    'sprinkler_motion_success',
  );
}

/**
 * A server with a machine due now; its autopilot turned to auto, and the server killed with
 * SIGKILL at the moment the machine receives the command `killAt` (before it acts on it or
 * answers), then started again on the same database and broker.
 */
export async function killMidStart(killAt: (command: CommandMessage) => boolean, on: 'embedded' | 'mosquitto') {
  const { server, brokerUrl } =
    on === 'embedded'
      ? await startEmbeddedProduct(AUTOPILOT_ENV)
      : await startProductOnMosquitto([AUTOPILOT_ENV]).then(({ servers, brokerUrl }) => ({
          server: servers[0]!,
          brokerUrl,
        }));
  const admin = await signInAsAdmin(server);
  const due = await startDueMachine(admin, brokerUrl, 'CHAOS-AUTO');
  let killedAt = 0;
  due.witness.onReceived((command) => {
    if (killedAt > 0 || !killAt(command)) return;
    killedAt = Date.now();
    // SIGKILL at once, before the machine's own listener hears the command.
    void server.kill();
  });
  await turnToAuto(admin, due.sprinklerId);
  expect(await until(() => killedAt > 0, 15_000), 'the command reached the machine').toBe(true);
  await server.kill();
  await server.restart();
  const restartedAt = Date.now();
  const again = await signInAsAdmin(server);
  return { server, admin: again, due, killedAt, restartMs: restartedAt - killedAt };
}
