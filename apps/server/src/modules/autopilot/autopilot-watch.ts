/**
 * The autopilot at work (docs/autopilot.md, "The watcher"): every few minutes, for each machine
 * whose mode is suggest or auto, it gathers what the decision is given, decides, tells the
 * activity log when the decision changed and, in auto, acts: sends the program from the advice
 * and starts the machine, stops it at the end of its revolution, pauses and resumes it for the
 * wind or the frost. Of any number of instances one looks each period (a claim in `job_runs`),
 * and a start is claimed in the machine's memory before its commands leave, so that no machine
 * is started twice and a start cut short by a crash is seen at the next look.
 */
import type { FastifyBaseLogger } from 'fastify';
import {
  type AutopilotStartFailure,
  COMMAND_CLOCK_TOLERANCE_MS,
  type ErrorCode,
  type ProgramData,
} from '@pivot/contracts';
import { AppError } from '../../errors';
import { RepeatingJob } from '../../time/repeating-job';
import { type AutopilotSources, type GatheredInput, type WatchedMachine, gatherInput } from './autopilot-inputs';
import type { AutopilotMemory } from './autopilot-memory';
import type { RunMark } from './autopilot-settings.repository';
import {
  type Decision,
  type DecisionInput,
  type PumpPeers,
  type StartDecision,
  type TimingDecision,
  type WaitDecision,
  decideNext,
} from './decide';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
/**
 * Beyond its commands' timeouts, how long a start may take: the database's and the event loop's
 * busy moments between its steps (the claim, the program, front, the memory saved).
 */
export const START_CLAIM_MARGIN_MS = 15_000;

/**
 * How old a start's claim is when the start is surely over: its two commands (the program, then
 * front) each wait at most the command timeout, and a machine acts on a command only until its
 * expiry (sent + timeout, give or take the clocks' tolerance). A claim this old, with the machine
 * not running, was cut short (the instance died): it is forgotten and the start decided afresh.
 */
export function startClaimStaleMs(commandTimeoutMs: number): number {
  return 2 * (commandTimeoutMs + COMMAND_CLOCK_TOLERANCE_MS) + START_CLAIM_MARGIN_MS;
}

/** The claim's stale time with the default command timeout (5 s, `COMMAND_TIMEOUT_MS`). */
export const START_CLAIM_STALE_MS = startClaimStaleMs(5000);

/** What the watcher keeps of the machines it looks at: their memory, and the start claim. */
export type AutopilotMemoryStore = {
  watched(): Promise<WatchedMachine[]>;
  /**
   * Keeps the machine's memory unless a pass other than `runWas` (its start, as the writer read
   * it) was started since; whether it was kept.
   */
  saveMemory(sprinklerId: number, memory: AutopilotMemory, runWas: RunMark): Promise<boolean>;
  /**
   * Claims a start of the machine at `now` unless another claim is younger than `staleBefore` or
   * a pass other than `runWas` was started since; whether it was claimed.
   */
  claimStart(sprinklerId: number, now: number, staleBefore: number, runWas: RunMark): Promise<boolean>;
};

/**
 * Whom the autopilot's commands are sent for, as the activity log names them: the server itself
 * (no user, no address: the watcher), or the person who asked for the pass with one tap.
 */
export type PassActor = { userId: number | null; ip: string };
/** The watcher's own commands: no request asked for them. */
export const THE_SERVER: PassActor = { userId: null, ip: '' };

/** The machine's hands: the commands the autopilot sends, for the server itself or for a person. */
export type AutopilotHands = {
  sendProgram(machine: WatchedMachine, name: string, programData: ProgramData, by: PassActor): Promise<void>;
  move(machine: WatchedMachine, motion: 'front' | 'stop', by: PassActor): Promise<void>;
};

/** The decision's activity-log entry, told to each reader in their language. */
export type DecisionLog = { tell(machine: WatchedMachine, decision: Decision, now: number): Promise<void> };

/** Where the autopilot's own incidents ("Irrigation due", a start that failed) open and end: the incidents module's desk. */
export type DueAlerts = {
  begin(machine: MachineNamed, kind: OwnIncident, detail: string, at: number): Promise<boolean>;
  end(machine: MachineNamed, kind: OwnIncident, at: number): Promise<boolean>;
};
type OwnIncident = 'irrigation_due' | 'start_failed';

/** The failure of a command the autopilot sent, as its start_failed incident names it. */
const START_FAILURE_OF: Partial<Record<ErrorCode, AutopilotStartFailure>> = {
  sprinkler_unresponsive: 'unanswered',
  command_refused: 'refused',
  sprinkler_processing_error: 'unreadable',
  sprinkler_offline: 'offline',
  broker_unreachable: 'broker_down',
  machine_clock_wrong: 'clock_wrong',
};

export function startFailureOf(error: unknown): AutopilotStartFailure {
  return (error instanceof AppError ? START_FAILURE_OF[error.code] : undefined) ?? 'error';
}
type MachineNamed = { id: number; name: string; internalId: string };
const named = (machine: WatchedMachine): MachineNamed => ({
  id: machine.sprinklerId,
  name: machine.name,
  internalId: machine.internalId,
});

export type AutopilotWatchDeps = {
  sources: AutopilotSources;
  dueAlerts: DueAlerts;
  memory: AutopilotMemoryStore;
  hands: AutopilotHands;
  log: DecisionLog;
  /** Claims this period's look across instances; whether this one looks. */
  claimLook(now: number, withinMs: number): Promise<boolean>;
  logger: FastifyBaseLogger;
  /** How often it looks (`AUTOPILOT_LOOK_SECONDS`): a start is decided at most this late. */
  everyMs: number;
  /** When a start's claim is stale (`startClaimStaleMs` of the command timeout); START_CLAIM_STALE_MS when not given. */
  claimStaleMs?: number;
};

/** What makes two decisions the same news: the same kind about the same moment or reason. */
export function decisionKey(decision: Decision): string {
  const warned = decision.allowanceWarning === null ? '' : ':allowance';
  const timingKey = (timing: TimingDecision): string => {
    switch (timing.kind) {
      case 'start':
        return `start:${timing.dueAt}:${timing.areas.join(',')}`;
      case 'wait':
        return `wait:${timing.until}:${timing.reason}`;
      case 'queue_pump':
        return `queue_pump:${timing.ahead.join(',')}`;
    }
  };
  switch (decision.kind) {
    case 'start':
    case 'wait':
    case 'queue_pump':
      return timingKey(decision) + warned;
    case 'reconcile':
      return `reconcile:${decision.skippedAt}:${timingKey(decision.then)}${warned}`;
    case 'skip_rain':
      return `skip_rain:${decision.area}${warned}`;
    case 'refuse':
      return `refuse:${decision.reason}${warned}`;
    case 'not_due':
      return `not_due:${decision.triggerAt}${warned}`;
    default:
      return decision.kind + warned;
  }
}

/** The start a decision makes now, if it makes one (itself, or the timing a reconcile leads to). */
export function startNow(decision: Decision): StartDecision | null {
  const timing = decision.kind === 'reconcile' ? decision.then : decision;
  return timing.kind === 'start' ? timing : null;
}

/** The start a decision puts off to a later moment, if it does (itself, or the timing a reconcile leads to). */
function startPutOff(decision: Decision): WaitDecision | null {
  const timing = decision.kind === 'reconcile' ? decision.then : decision;
  return timing.kind === 'wait' ? timing : null;
}

/**
 * The memory of a pass the autopilot starts: when, the hours its revolution takes, its sectors (the
 * rain skip before it is followed). `asked`: a person asked for it with one tap, in any mode.
 */
export function beginRun(
  kept: AutopilotMemory,
  start: StartDecision,
  at: { now: number; revolutionHours: number; asked?: boolean },
): void {
  kept.run = { startedAt: at.now, revolutionHours: at.revolutionHours, areas: start.areas };
  if (at.asked) kept.run.asked = true;
  delete kept.lastSkip;
}

/** What a look does on a decision: the memory after it, whether to tell the log, the command to give. */
export type FollowUp = {
  memory: AutopilotMemory;
  tell: boolean;
  /** start: the program from the advice, then front; front and stop: a motion; null: none. */
  act: 'start' | 'front' | 'stop' | null;
  /**
   * A start was cut short: its claim went stale with the machine at rest (the instance that made
   * it died before front went through). Its pass is forgotten, not counted as watered.
   */
  interrupted: boolean;
};

/**
 * The watcher's steps on a decision, as a pure function (the bench's simulated seasons take the
 * same): what the memory keeps, whether the decision is news for the log and, in auto, which
 * command follows. A start is given here as the pass it begins; the watcher claims it first.
 */
export function followDecision(
  decision: Decision,
  memory: AutopilotMemory,
  at: { now: number; running: boolean; auto: boolean; revolutionHours: number | null; claimStaleMs?: number },
): FollowUp {
  const { now, running, auto } = at;
  const kept: AutopilotMemory = structuredClone(memory);
  const stale =
    kept.startingSince !== undefined && now - kept.startingSince >= (at.claimStaleMs ?? START_CLAIM_STALE_MS);
  // A start cut short (a crash between its claim and front) is forgotten once stale: the machine
  // stands, so its pass never began, and its sectors are as dry as the balance says.
  const interrupted = stale && !running;
  if (interrupted) delete kept.run;
  if (running || stale) delete kept.startingSince;
  // The pass ended when the machine stopped (not held by the autopilot's own pause): its sectors
  // are watered today, which the balance (of the days before) does not hold yet.
  if (kept.run && !running && kept.pausedBy === undefined && kept.startingSince === undefined) {
    kept.watered = { at: now, areas: kept.run.areas };
    delete kept.run;
  }
  const key = decisionKey(decision);
  const tell = key !== kept.told;
  kept.told = key;
  const putOff = startPutOff(decision);
  if (putOff === null) delete kept.plannedStartAt;
  else kept.plannedStartAt = putOff.until;
  let act: FollowUp['act'] = null;
  switch (decision.kind) {
    case 'skip_rain':
      kept.lastSkip ??= { at: now, forecastMm: decision.rainMm, withinHours: decision.withinHours };
      break;
    case 'not_due':
      delete kept.lastSkip;
      break;
    case 'pause_wind':
    case 'pause_frost':
      kept.pausedBy = decision.kind === 'pause_wind' ? 'wind' : 'frost';
      if (auto && decision.stopsRunning && running) {
        act = 'stop';
        // The pass's revolution counts the hours it moves: the pause is taken out on resuming.
        if (kept.run) kept.run.pausedAt ??= now;
      }
      break;
    case 'resume':
      delete kept.pausedBy;
      if (kept.run?.pausedAt !== undefined) {
        kept.run.startedAt += now - kept.run.pausedAt;
        delete kept.run.pausedAt;
      }
      if (auto && kept.run && !running) act = 'front';
      break;
    case 'watering':
      // The autopilot's pass ends with its revolution: in auto, and in any mode for one a person asked for.
      if (
        (auto || kept.run?.asked === true) &&
        kept.run &&
        running &&
        now - kept.run.startedAt >= kept.run.revolutionHours * HOUR_MS
      ) {
        act = 'stop';
        kept.watered = { at: now, areas: kept.run.areas };
        delete kept.run;
      }
      break;
    default: {
      const start = startNow(decision);
      if (auto && start !== null && !running && at.revolutionHours !== null) {
        act = 'start';
        beginRun(kept, start, { now, revolutionHours: at.revolutionHours });
      }
    }
  }
  return { memory: kept, tell, act, interrupted };
}

export class AutopilotWatch {
  /** Run each period (no argument: claimed first) and on demand (`lookOnce`, given the time: looks at once). */
  private readonly job: RepeatingJob<number>;

  constructor(private readonly deps: AutopilotWatchDeps) {
    this.job = new RepeatingJob<number>(
      async (now) => {
        if (now === undefined) await this.lookIfDue(Date.now());
        else await this.look(now);
      },
      {
        everyMs: deps.everyMs,
        onError: (error) => deps.logger.error({ err: error }, 'the autopilot could not look at the machines'),
      },
    );
  }

  start(): void {
    this.job.start();
  }

  stop(): Promise<void> {
    return this.job.stop();
  }

  /** Looks now, whenever the last look was; resolves when done. */
  lookOnce(now = Date.now()): Promise<void> {
    return this.job.runNow(now);
  }

  private async lookIfDue(now: number): Promise<void> {
    // Unless another instance looked within a little less than the period (its timer drifts).
    const withinMs = this.deps.everyMs - Math.min(MINUTE_MS, this.deps.everyMs / 10);
    if (await this.deps.claimLook(now, withinMs)) await this.look(now);
  }

  private async look(now: number): Promise<void> {
    const { sources, memory, logger } = this.deps;
    // The look's own clock: `now` moved on by the time the look has taken so far (a claim is made
    // when it is made, however long the machines before it took).
    const began = Date.now();
    const clock = () => now + (Date.now() - began);
    const machines = await memory.watched();
    if (machines.length === 0) return;
    const incidents = await sources.openIncidents();
    const gathered: { machine: WatchedMachine; input: GatheredInput }[] = [];
    for (const machine of machines) {
      try {
        gathered.push({ machine, input: await gatherInput(sources, machine, incidents, now) });
      } catch (error) {
        logger.error({ err: error, sprinklerId: machine.sprinklerId }, 'the autopilot could not read a machine');
      }
    }
    const peers = pumpPeersOf(
      gathered.map(({ machine, input }) => ({ id: machine.sprinklerId, name: machine.name, input })),
    );
    for (const { machine, input } of gathered) {
      try {
        const decision = decideNext({ ...input, pump: peers(machine.sprinklerId) });
        await this.follow(machine, input, decision, now, clock);
      } catch (error) {
        logger.error({ err: error, sprinklerId: machine.sprinklerId }, 'the autopilot could not act on a machine');
      }
    }
  }

  /** Tells the log of a new decision, acts on it in auto, and keeps what the next look needs. */
  private async follow(
    machine: WatchedMachine,
    input: GatheredInput,
    decision: Decision,
    now: number,
    clock: () => number,
  ): Promise<void> {
    const running = input.detail.status === 'front' || input.detail.status === 'back';
    const step = followDecision(decision, machine.memory, {
      now,
      running,
      auto: machine.mode === 'auto',
      revolutionHours: input.program.programData === null ? null : input.program.revolutionHours,
      claimStaleMs: this.claimStaleMs,
    });
    const kept = step.memory;
    // The pass the memory holds as this look read it: a tap that started one since is not undone.
    let runWas = runMark(machine.memory);
    if (step.tell) await this.deps.log.tell(machine, decision, now);
    // A start cut short is told as a start that failed: the farmer hears of it, and the next start
    // that goes through (this look's, when the pass is still due) ends it.
    if (step.interrupted) {
      const why: AutopilotStartFailure = 'interrupted';
      await this.deps.dueAlerts.begin(named(machine), 'start_failed', why, now);
    }
    await this.alertWhenDue(machine, decision, kept, now);
    if (step.act === 'start') {
      // Another holds the start's claim, or started a pass since this look read the memory: the
      // memory is theirs, and is left as it is (writing this look's over it could drop their pass).
      if (await this.startPass(machine, input, kept, now, THE_SERVER, clock)) runWas = runMark(kept);
      else return;
    } else if (step.act !== null) await this.deps.hands.move(machine, step.act, THE_SERVER);
    if (JSON.stringify(kept) !== JSON.stringify(machine.memory))
      await this.deps.memory.saveMemory(machine.sprinklerId, kept, runWas);
  }

  private get claimStaleMs(): number {
    return this.deps.claimStaleMs ?? START_CLAIM_STALE_MS;
  }

  /**
   * In suggest, "Irrigation due" for those who control the machine while a pass would start now;
   * over once the machine waters, is no longer due, or the autopilot acts itself.
   */
  private async alertWhenDue(machine: WatchedMachine, decision: Decision, kept: AutopilotMemory, now: number) {
    const start = startNow(decision);
    if (machine.mode === 'suggest' && start !== null && !kept.dueAlerted) {
      await this.deps.dueAlerts.begin(named(machine), 'irrigation_due', start.areas.join(', '), now);
      kept.dueAlerted = true;
    } else if (
      kept.dueAlerted &&
      (machine.mode === 'auto' || decision.kind === 'watering' || decision.kind === 'not_due')
    ) {
      await this.deps.dueAlerts.end(named(machine), 'irrigation_due', now);
      delete kept.dueAlerted;
    }
  }

  /**
   * Starts the pass whose memory `kept` holds (`beginRun`): the program from the advice, then the
   * machine forward, for the server (the watcher, in auto) or for the person who asked with one
   * tap. The start is claimed first, so that of two instances, two taps or a tap and a look one
   * sends it, and only while the pass the memory holds is the one the caller read (`runMark`):
   * false, and nothing sent, when the claim is refused (the memory is another's then, to be left
   * as it is). The memory says the pass is the autopilot's before the commands leave, so a crash
   * between them leaves a pass the next look recognises. A command that fails is thrown; the
   * watcher's own failed start opens start_failed (a person is answered at once), and a start that
   * goes through ends it, and an open "Irrigation due". The caller keeps the memory after a start
   * that went through. `now`: when the caller read the machine, by which a claim is judged stale;
   * `clock`: the time the claim is dated by.
   */
  async startPass(
    machine: WatchedMachine,
    input: GatheredInput,
    kept: AutopilotMemory,
    now: number,
    by: PassActor,
    clock: () => number = () => now,
  ): Promise<boolean> {
    const { programData } = input.program;
    if (programData === null) return false;
    const runWas = runMark(machine.memory);
    const claimedAt = clock();
    // Stale by the moment the caller read the machine, as `followDecision` judged it: a claim that
    // went stale during the look is taken up by the next one, which tells of the start it cut short.
    const claimed = await this.deps.memory.claimStart(machine.sprinklerId, claimedAt, now - this.claimStaleMs, runWas);
    if (!claimed) return false;
    kept.startingSince = claimedAt;
    // Claimed, no other pass can have begun: the pass is kept as the autopilot's before any command.
    if (!(await this.deps.memory.saveMemory(machine.sprinklerId, kept, runWas))) return false;
    const started = runMark(kept);
    const name = input.detail.currentProgramData?.name ?? machine.name;
    try {
      await this.deps.hands.sendProgram(machine, name, programData, by);
      await this.deps.hands.move(machine, 'front', by);
    } catch (error) {
      // The command's failure is in the log already (the commands module's); the pass is forgotten,
      // the farmer is alerted of the watcher's own, and the next look tries again.
      delete kept.run;
      delete kept.startingSince;
      await this.deps.memory.saveMemory(machine.sprinklerId, kept, started);
      if (by.userId === null) {
        await this.deps.dueAlerts.begin(named(machine), 'start_failed', startFailureOf(error), now);
      }
      throw error;
    }
    delete kept.startingSince;
    await this.deps.dueAlerts.end(named(machine), 'start_failed', now);
    // The machine waters: "Irrigation due" (suggest) is over now, not at the next look.
    if (kept.dueAlerted) {
      await this.deps.dueAlerts.end(named(machine), 'irrigation_due', now);
      delete kept.dueAlerted;
    }
    return true;
  }
}

/** The start of the pass a memory holds, as the store compares it. */
export function runMark(memory: AutopilotMemory): RunMark {
  return memory.run?.startedAt ?? null;
}

/** A machine of the look, as its pump group's peers see it: its id, name and decision input. */
export type PumpMember = { id: number; name: string; input: Omit<DecisionInput, 'pump'> };

/**
 * Each machine's pump group's peers: those of its group watering now, and those whose own
 * decision, alone, is to start now, with their slack (hours to their latest start).
 */
export function pumpPeersOf(members: readonly PumpMember[]): (id: number) => PumpPeers {
  const alone = members.map((member) => {
    const decision =
      member.input.rules.pumpGroup === null ? null : decideNext({ ...member.input, pump: { watering: [], due: [] } });
    return { ...member, start: decision === null ? null : startNow(decision) };
  });
  return (id) => {
    const group = alone.find((member) => member.id === id)?.input.rules.pumpGroup?.id;
    if (group === undefined) return { watering: [], due: [] };
    const others = alone.filter((peer) => peer.id !== id && peer.input.rules.pumpGroup?.id === group);
    return {
      watering: others
        .filter((peer) => peer.input.machine.watering !== null)
        .map((peer) => ({ id: peer.id, name: peer.name })),
      due: others.flatMap((peer) =>
        peer.start === null
          ? []
          : [{ id: peer.id, name: peer.name, slackHours: (peer.start.dueAt - peer.input.now) / HOUR_MS }],
      ),
    };
  };
}
