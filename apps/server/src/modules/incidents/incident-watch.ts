import { performance } from 'node:perf_hooks';
import { type IncidentKind, sectorUnderArm, silenceBeforeOfflineMs } from '@pivot/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Queryable } from '../../db/client';
import type { HealthProblem } from '../../http/health';
import { RepeatingJob } from '../../time/repeating-job';
import type { AlertsService } from '../alerts';
import type { MachineCommands } from '../commands';
import type { LogsService } from '../logs';
import type { SprinklersService } from '../sprinklers';
import type { LiveStateFilter, MachineLiveState, MachineStateRow, TelemetryService } from '../telemetry';
import { recordIncidents } from './incident-record';
import { type MachineLook, OFFLINE_AFTER_MS, type OpenIncident, type Watch, judge } from './incident-rules';
import {
  endIncidents,
  findLowPressurePending,
  findOpenIncidents,
  findWatches,
  incidentKey,
  openIncidents,
  saveWatches,
  setRecoverings,
  tryLockWatch,
  writesUnseenFrom,
} from './incidents.repository';

/** How often the machines are looked at: an incident is raised within this of the report that shows it. */
const LOOK_EVERY_MS = 1000;
/** How far back the look times that health reports reach. */
const LOOK_TIMES_KEPT_MS = 60_000;
/**
 * Every machine is read at least once in this time anyway, a slice of the fleet at each look: a
 * safety net under the narrow looks (a write by a role the watch cannot see in pg_stat_activity,
 * a clock stepped back, a write no look of a running instance followed).
 */
const SWEEP_EVERY_MS = 60_000;
/**
 * A look sweeps at most this much time's share of the fleet: after a pause (the instance's first
 * look, another instance holding the lock, a slow look) the sweep goes on from now instead of
 * reading the whole fleet at once while an alarm waits.
 */
const SWEEP_AT_MOST_MS = 5 * LOOK_EVERY_MS;
/** A second's slack on the silence thresholds: the rules' comparison is in ms, the stored times in µs. */
const SILENCE_SLACK_MS = 1000;
const NO_WATCH: Watch = { status: null, lowPressureSince: null };
const NONE_OPEN: ReadonlyMap<IncidentKind, OpenIncident> = new Map();

type WatchedMachine = Awaited<ReturnType<SprinklersService['watched']>>[number];

/**
 * Whether the machine's current program waters where its arm is, as the machine itself decides
 * (the sector under two thirds of the arm, `sectorUnderArm`): a sector with a positive rate.
 * With no program it waters everywhere.
 */
function programWatersUnderArm(
  machine: WatchedMachine,
  state: MachineLiveState,
  program: MachineStateRow['programData'] | undefined,
): boolean {
  if (!program || state.angle === null) return true;
  const centre = { lat: Number(machine.lat), lng: Number(machine.lng) };
  const sector = sectorUnderArm(program, { centre, armLength: machine.armLength }, state.angle);
  return sector !== null && sector.properties.rate > 0;
}

/** What the rules judge a machine by besides its state: when it changes, the machine is judged again. */
function judgedByKey(machine: WatchedMachine): string {
  return `${machine.lowPressureBar} ${machine.lat} ${machine.lng} ${machine.armLength}`;
}

/**
 * The machines of the sweep due between two looks at `from` and `to`: machine i of n is due each
 * time the clock passes i/n of a SWEEP_EVERY_MS period, so each is read once a period, a slice a
 * look. Nothing before an instance's first look; at most SWEEP_AT_MOST_MS's share after a pause.
 */
function sweptBetween(machineIds: string[], from: number | undefined, to: number): string[] {
  if (from === undefined || machineIds.length === 0) return [];
  // In whole periods and the part of one apart: time × n itself would pass 2^53 at 10,000 machines.
  const dueAt = (time: number) =>
    Math.floor(time / SWEEP_EVERY_MS) * machineIds.length +
    Math.floor(((time % SWEEP_EVERY_MS) * machineIds.length) / SWEEP_EVERY_MS);
  const swept: string[] = [];
  for (let due = dueAt(Math.max(from, to - SWEEP_AT_MOST_MS)) + 1; due <= dueAt(to); due += 1) {
    swept.push(machineIds[due % machineIds.length]!);
  }
  return swept;
}

/** Whether the machine reports a pressure below the low-pressure threshold set for it. */
function isBelowThreshold(machine: WatchedMachine, state: MachineLiveState | undefined): boolean {
  const pressure = state?.pressure ?? null;
  return pressure !== null && pressure < machine.lowPressureBar;
}

/**
 * Looks at the added machines once a second and raises incidents by the rules of
 * incident-rules.ts. Every instance runs it; a look happens in one transaction that first takes
 * a lock, so one instance looks at a time and each incident begins and ends once. An incident's
 * log entry and its queued alerts are written in that same transaction. A look reads and judges
 * only the machines whose state changed since this instance's previous look, whose verdict time
 * alone can change, or whose thresholds changed (see `narrowing`), and a slice of the fleet
 * (`sweptBetween`): no look reads the whole fleet, so none keeps an alarm waiting for it.
 *
 * Reading on from this instance's own previous look is right even when other instances looked
 * since: a write that a later look did not see, this instance's look did not see either, so it is
 * dated after that look's `unseenFrom`. An instance's first look reads the changes of the last
 * second (LOOK_EVERY_MS), as if it had looked then: the writes before were judged by the looks
 * that followed them, of this instance before it stopped or of the others, and the sweep reads
 * every machine within the minute anyway.
 */
export class IncidentWatch {
  /** When each recent look that held the lock ended, and how long it took, ms: the last minute's. */
  private readonly recentLooks: { endedAt: number; ms: number }[] = [];
  /**
   * This instance's last look that held the lock and committed: from when a write may have been
   * unseen by it (by the database's clock, see `writesUnseenFrom`), its time (where the sweep goes
   * on from), and what it judged each machine by (`judgedByKey`). Null before its first.
   */
  private previous: { unseenFrom: number; now: number; judgedBy: Map<string, string> } | null = null;
  private lastJudged: { narrow: number; swept: number } | null = null;
  private readonly job = new RepeatingJob<number>((now = Date.now()) => this.look(now), {
    everyMs: LOOK_EVERY_MS,
    onError: (error) => this.deps.logger.error({ err: error }, 'watching for incidents failed'),
  });

  constructor(
    private readonly deps: {
      db: Database;
      sprinklers: Pick<SprinklersService, 'watched'>;
      telemetry: Pick<TelemetryService, 'liveStatesOf' | 'runningProgramsOf'>;
      commands: Pick<MachineCommands, 'lastMotionAt'>;
      logs: Pick<LogsService, 'recordAll'>;
      alerts: Pick<AlertsService, 'raiseAll' | 'raiseCommitted'>;
      /** Since when this instance has heard the broker without a break; null while it does not. */
      listeningSince: () => number | null;
      logger: FastifyBaseLogger;
    },
  ) {}

  start(): void {
    this.job.start();
  }

  stop(): Promise<void> {
    return this.job.stop();
  }

  /** Looks at the machines now (unless another instance is looking); resolves when done. */
  lookOnce(now = Date.now()): Promise<void> {
    return this.job.runNow(now);
  }

  /** How many machines' states this instance's last look read for what may have changed, and how many for the sweep. */
  lastLook(): { narrow: number; swept: number } | null {
    return this.lastJudged;
  }

  /**
   * How long this instance's looks took over the last minute (those it made, not those another
   * instance held the lock for), ms: what GET /api/health reports. A look that takes longer
   * than the second between looks delays every incident.
   */
  lookTimes(now = Date.now()): { p95: number | null; max: number | null; looks: number } {
    this.forgetOldLooks(now);
    const sorted = this.recentLooks.map((look) => look.ms).sort((a, b) => a - b);
    if (sorted.length === 0) return { p95: null, max: null, looks: 0 };
    const p95 = sorted[Math.max(0, Math.ceil(sorted.length * 0.95) - 1)]!;
    return { p95: Math.round(p95), max: Math.round(sorted.at(-1)!), looks: sorted.length };
  }

  /** A slow look is a health problem: incidents are raised later than the rules say. */
  problems(): HealthProblem[] {
    const { p95 } = this.lookTimes();
    if (p95 === null || p95 <= LOOK_EVERY_MS) return [];
    return [
      {
        code: 'incident_watch_slow',
        message: `looking at the machines for incidents took ${p95} ms (95th percentile of the last minute), longer than the ${LOOK_EVERY_MS} ms between looks: incidents are raised late`,
      },
    ];
  }

  private forgetOldLooks(now: number): void {
    while (this.recentLooks.length > 0 && this.recentLooks[0]!.endedAt < now - LOOK_TIMES_KEPT_MS) {
      this.recentLooks.shift();
    }
  }

  private async look(now: number): Promise<void> {
    const { db, sprinklers, telemetry } = this.deps;
    const listeningSince = this.deps.listeningSince();
    // Not hearing the broker, the rules judge nothing (`judge`): such a look would only move
    // `previous` past changes that must be judged once it hears again.
    if (listeningSince === null) return;
    const started = performance.now();
    const previous = this.previous;
    let looked: IncidentWatch['previous'] = null;
    const raised = await db.transaction(async (tx) => {
      // Another instance looks now when the lock is taken.
      if (!(await tryLockWatch(tx))) return 0;
      // Taken before the states are read: a row this look does not see was written after
      // `unseenFrom`, by a transaction that had not committed yet or that began later.
      const { now: at, unseenFrom } = await writesUnseenFrom(tx);
      const machines = await sprinklers.watched(tx);
      const machineIds = machines.map((machine) => machine.internalId);
      const judgedBy = new Map(machines.map((machine) => [machine.internalId, judgedByKey(machine)]));
      const rejudged = previous
        ? machineIds.filter((machineId) => previous.judgedBy.get(machineId) !== judgedBy.get(machineId))
        : [];
      const open = await findOpenIncidents(tx);
      const changedFrom = previous ? previous.unseenFrom : at - LOOK_EVERY_MS;
      const changed = await telemetry.liveStatesOf(
        tx,
        machineIds,
        await this.narrowing(tx, changedFrom, [...open.keys(), ...rejudged], now),
      );
      const swept = await telemetry.liveStatesOf(tx, sweptBetween(machineIds, previous?.now, now));
      const states = new Map([...changed, ...swept]);
      this.lastJudged = { narrow: changed.size, swept: swept.size };
      // A machine without a state has never connected: the rules judge nothing of it.
      const judged = machines.filter((machine) => states.has(machine.internalId));
      // A program's sectors are read only where they matter, every second: for a machine whose
      // pressure is below its threshold (see watersHere below), not for the whole fleet.
      const belowThreshold = judged.filter((machine) => isBelowThreshold(machine, states.get(machine.internalId)));
      const programs = await telemetry.runningProgramsOf(
        tx,
        belowThreshold.map((machine) => machine.internalId),
      );
      const watches = await findWatches(
        tx,
        judged.map((machine) => machine.internalId),
      );
      const lastMotion = await this.lastMotionWhereAsked(tx, judged, states, watches, open);
      const verdicts = judged.map((machine) => {
        const state = states.get(machine.internalId);
        const look: MachineLook = {
          machineId: machine.internalId,
          state: state && {
            online: state.online,
            reportedAt: state.reportedAt?.getTime() ?? null,
            presenceAt: state.presenceAt?.getTime() ?? null,
            status: state.status,
            pressure: state.pressure,
            flow: state.flow,
            angle: state.angle,
            alarm: state.alarm,
          },
          lowPressureBar: machine.lowPressureBar,
          // Only asked where it matters: a moving machine whose pressure is below its threshold.
          watersHere:
            state && isBelowThreshold(machine, state)
              ? programWatersUnderArm(machine, state, programs.get(machine.internalId))
              : true,
          lastMotionCommandAt: lastMotion.get(machine.internalId) ?? null,
        };
        const watch = watches.get(machine.internalId) ?? NO_WATCH;
        return {
          machine,
          watch,
          verdict: judge(look, watch, open.get(machine.internalId) ?? NONE_OPEN, now, listeningSince),
        };
      });
      const recorded = await this.apply(tx, verdicts, now);
      looked = { unseenFrom, now, judgedBy };
      return recorded;
    });
    if (raised > 0) this.deps.alerts.raiseCommitted();
    // Only once the look committed: should it fail, the next reads on from where this one began.
    if (!looked) return;
    this.previous = looked;
    const endedAt = Date.now();
    this.recentLooks.push({ endedAt, ms: performance.now() - started });
    this.forgetOldLooks(endedAt);
  }

  /**
   * Which machines a look reads besides the sweep's: a machine whose state is unchanged and whose
   * verdict time alone cannot change is judged as before, so it is not read. Time alone changes
   * the verdict of a machine whose silence reaches the offline threshold (docs/alerts.md; the
   * `judge` rules of incident-rules.ts, each kept here), of one with an open incident (its
   * recovery hold; a person's motion command ends a low pressure), and of one whose pressure is
   * low but not for long enough yet. A stop is judged unexpected against the motion commands at
   * the look after it changed the state. `alsoOf` are machines read whatever their state: those
   * with an open incident, those whose thresholds changed.
   */
  private async narrowing(tx: Queryable, changedFrom: number, alsoOf: string[], now: number): Promise<LiveStateFilter> {
    const heardBefore = (silenceMs: number) => new Date(now - silenceMs + SILENCE_SLACK_MS);
    // Offline takes OFFLINE_AFTER_MS of silence, and, while the connection is open, the silence
    // after which the machine's last report makes it offline (`machineIsOnline`).
    const offlineAfter = (status: 'front' | 'stop') =>
      Math.max(OFFLINE_AFTER_MS, silenceBeforeOfflineMs({ status, flow: 0 }));
    return {
      changedFrom: new Date(changedFrom),
      alsoOf: [...alsoOf, ...(await findLowPressurePending(tx))],
      heardBefore: {
        disconnected: heardBefore(OFFLINE_AFTER_MS),
        moving: heardBefore(offlineAfter('front')),
        resting: heardBefore(offlineAfter('stop')),
      },
    };
  }

  /**
   * Whether a person moved the machine lately matters only for a machine that stopped after
   * moving, or that has low pressure: only those are asked about, not the whole fleet every second.
   */
  private async lastMotionWhereAsked(
    tx: Queryable,
    machines: WatchedMachine[],
    states: Awaited<ReturnType<TelemetryService['liveStatesOf']>>,
    watches: Map<string, Watch>,
    open: Map<string, Map<IncidentKind, OpenIncident>>,
  ): Promise<Map<string, number>> {
    const asked = machines
      .map((machine) => machine.internalId)
      .filter((machineId) => {
        const before = watches.get(machineId)?.status;
        const stopped = (before === 'front' || before === 'back') && states.get(machineId)?.status === 'stop';
        return stopped || open.get(machineId)?.has('low_pressure');
      });
    return this.deps.commands.lastMotionAt(tx, asked);
  }

  /**
   * Writes what the verdicts say, each kind of change for every machine at once: a mass event
   * (a thousand machines going offline together) is a few statements, not a dozen a machine, so
   * an alarm among them waits for no more than that.
   */
  private async apply(
    tx: Queryable,
    verdicts: { machine: WatchedMachine; watch: Watch; verdict: ReturnType<typeof judge> }[],
    now: number,
  ): Promise<number> {
    await saveWatches(
      tx,
      verdicts
        .filter(
          ({ watch, verdict }) =>
            verdict.watch.status !== watch.status || verdict.watch.lowPressureSince !== watch.lowPressureSince,
        )
        .map(({ machine, verdict }) => ({ machineId: machine.internalId, watch: verdict.watch })),
    );
    await setRecoverings(
      tx,
      verdicts.flatMap(({ verdict }) =>
        verdict.recovering.map(({ incident, since, relapses }) => ({ id: incident.id, since, relapses })),
      ),
    );
    const at = new Date(now);
    const opened = await openIncidents(
      tx,
      verdicts.flatMap(({ machine, verdict }) =>
        verdict.begin.map(({ kind, detail }) => ({ machineId: machine.internalId, kind, beganAt: at, detail })),
      ),
    );
    const ended = await endIncidents(
      tx,
      verdicts.flatMap(({ verdict }) => verdict.end.map(({ incident }) => incident.id)),
      at,
    );
    // In the log as the verdicts came, a machine's beginnings before its ends.
    return recordIncidents(
      this.deps,
      tx,
      verdicts.flatMap(({ machine, verdict }) => [
        ...verdict.begin
          .filter(({ kind }) => opened.has(incidentKey(machine.internalId, kind)))
          .map(({ kind, detail }) => ({ machine, kind, phase: 'began' as const, detail })),
        ...verdict.end
          .filter(({ incident }) => ended.has(incident.id))
          .map(({ incident, detail }) => ({ machine, kind: incident.kind, phase: 'ended' as const, detail })),
      ]),
    );
  }
}
