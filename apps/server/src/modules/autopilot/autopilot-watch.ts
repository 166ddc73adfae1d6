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
import type { ProgramData } from '@pivot/contracts';
import { RepeatingJob } from '../../time/repeating-job';
import { type AutopilotSources, type GatheredInput, type WatchedMachine, gatherInput } from './autopilot-inputs';
import type { AutopilotMemory } from './autopilot-memory';
import { type Decision, type PumpPeers, type TimingDecision, decideNext } from './decide';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
/** How often the autopilot looks: a start is decided at most this late. */
export const AUTOPILOT_LOOK_MS = 10 * MINUTE_MS;
/** An instance's look runs unless another's ran within this: a little less than the period. */
const LOOKED_WITHIN_MS = AUTOPILOT_LOOK_MS - MINUTE_MS;
/** A start claimed longer ago than this, with the machine not running, was cut short: it is decided afresh. */
export const START_CLAIM_STALE_MS = 5 * MINUTE_MS;

/** What the watcher keeps of the machines it looks at: their memory, and the start claim. */
export type AutopilotMemoryStore = {
  watched(): Promise<WatchedMachine[]>;
  saveMemory(sprinklerId: number, memory: AutopilotMemory): Promise<void>;
  /** Claims a start of the machine at `now` unless another claim is younger than `staleBefore`; whether it was claimed. */
  claimStart(sprinklerId: number, now: number, staleBefore: number): Promise<boolean>;
};

/** The machine's hands: the commands the autopilot sends, as the server itself (no user). */
export type AutopilotHands = {
  sendProgram(machine: WatchedMachine, name: string, programData: ProgramData): Promise<void>;
  move(machine: WatchedMachine, motion: 'front' | 'stop'): Promise<void>;
};

/** The decision's activity-log entry, told to each reader in their language. */
export type DecisionLog = { tell(machine: WatchedMachine, decision: Decision, now: number): Promise<void> };

/** Where "Irrigation due" is opened and ended (the incidents module's desk). */
export type DueAlerts = {
  begin(machine: MachineNamed, kind: 'irrigation_due', detail: string, at: number): Promise<boolean>;
  end(machine: MachineNamed, kind: 'irrigation_due', at: number): Promise<boolean>;
};
type MachineNamed = { id: number; name: string; internalId: string };

export type AutopilotWatchDeps = {
  sources: AutopilotSources;
  dueAlerts: DueAlerts;
  memory: AutopilotMemoryStore;
  hands: AutopilotHands;
  log: DecisionLog;
  /** Claims this period's look across instances; whether this one looks. */
  claimLook(now: number, withinMs: number): Promise<boolean>;
  logger: FastifyBaseLogger;
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

/** The pass a decision goes ahead with, if it starts now. */
function startsNow(decision: Decision): boolean {
  return decision.kind === 'start' || (decision.kind === 'reconcile' && decision.then.kind === 'start');
}

export class AutopilotWatch {
  /** Run each period (no argument: claimed first) and on demand (`lookOnce`, given the time: looks at once). */
  private readonly job = new RepeatingJob<number>(
    async (now) => {
      if (now === undefined) await this.lookIfDue(Date.now());
      else await this.look(now);
    },
    {
      everyMs: AUTOPILOT_LOOK_MS,
      onError: (error) => this.deps.logger.error({ err: error }, 'the autopilot could not look at the machines'),
    },
  );

  constructor(private readonly deps: AutopilotWatchDeps) {}

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
    if (await this.deps.claimLook(now, LOOKED_WITHIN_MS)) await this.look(now);
  }

  private async look(now: number): Promise<void> {
    const { sources, memory, logger } = this.deps;
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
    const peers = pumpPeers(gathered);
    for (const { machine, input } of gathered) {
      try {
        const decision = decideNext({ ...input, pump: peers(machine) });
        await this.follow(machine, input, decision, now);
      } catch (error) {
        logger.error({ err: error, sprinklerId: machine.sprinklerId }, 'the autopilot could not act on a machine');
      }
    }
  }

  /** Tells the log of a new decision, acts on it in auto, and keeps what the next look needs. */
  private async follow(machine: WatchedMachine, input: GatheredInput, decision: Decision, now: number): Promise<void> {
    const { hands } = this.deps;
    const kept: AutopilotMemory = { ...machine.memory };
    const running = input.detail.status === 'front' || input.detail.status === 'back';
    const auto = machine.mode === 'auto';
    // A start cut short (a crash between its claim and its commands) is forgotten once stale.
    if (kept.startingSince !== undefined && !running && now - kept.startingSince >= START_CLAIM_STALE_MS) {
      delete kept.startingSince;
    }
    if (running) delete kept.startingSince;
    // The pass the autopilot started ended when the machine stopped (not held by the autopilot's pause).
    if (kept.run && !running && kept.pausedBy === undefined && kept.startingSince === undefined) delete kept.run;

    const key = decisionKey(decision);
    if (key !== kept.told) {
      await this.deps.log.tell(machine, decision, now);
      kept.told = key;
    }

    await this.alertWhenDue(machine, decision, kept, now);
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
        if (auto && decision.stopsRunning && running) await hands.move(machine, 'stop');
        break;
      case 'resume':
        delete kept.pausedBy;
        if (auto && kept.run && !running) await hands.move(machine, 'front');
        break;
      case 'watering':
        if (auto && kept.run && running && now - kept.run.startedAt >= kept.run.revolutionHours * HOUR_MS) {
          await hands.move(machine, 'stop');
          delete kept.run;
        }
        break;
      default:
        if (auto && startsNow(decision) && !running) await this.startPass(machine, input, kept, now);
    }
    if (JSON.stringify(kept) !== JSON.stringify(machine.memory))
      await this.deps.memory.saveMemory(machine.sprinklerId, kept);
  }

  /**
   * In suggest, "Irrigation due" for those who control the machine while a pass would start now;
   * over once the machine waters, is no longer due, or the autopilot acts itself.
   */
  private async alertWhenDue(machine: WatchedMachine, decision: Decision, kept: AutopilotMemory, now: number) {
    const named = { id: machine.sprinklerId, name: machine.name, internalId: machine.internalId };
    if (machine.mode === 'suggest' && startsNow(decision) && !kept.dueAlerted) {
      const timing = decision.kind === 'reconcile' ? decision.then : decision;
      const areas = timing.kind === 'start' ? timing.areas.join(', ') : '';
      await this.deps.dueAlerts.begin(named, 'irrigation_due', areas, now);
      kept.dueAlerted = true;
    } else if (
      kept.dueAlerted &&
      (machine.mode === 'auto' || decision.kind === 'watering' || decision.kind === 'not_due')
    ) {
      await this.deps.dueAlerts.end(named, 'irrigation_due', now);
      delete kept.dueAlerted;
    }
  }

  /**
   * Starts the pass: the program from the advice, then the machine forward. The start is claimed
   * first, so that of two instances one sends it; the memory says the pass is the autopilot's
   * before the commands leave, so a crash between them leaves a pass the next look recognises.
   */
  private async startPass(
    machine: WatchedMachine,
    input: GatheredInput,
    kept: AutopilotMemory,
    now: number,
  ): Promise<void> {
    const { program } = input;
    if (program.programData === null || program.revolutionHours === null) return;
    if (!(await this.deps.memory.claimStart(machine.sprinklerId, now, now - START_CLAIM_STALE_MS))) return;
    kept.startingSince = now;
    kept.run = { startedAt: now, revolutionHours: program.revolutionHours };
    delete kept.lastSkip;
    await this.deps.memory.saveMemory(machine.sprinklerId, kept);
    const name = input.detail.currentProgramData?.name ?? machine.name;
    try {
      await this.deps.hands.sendProgram(machine, name, program.programData);
      await this.deps.hands.move(machine, 'front');
    } catch (error) {
      // The command's failure is in the log already (the commands module's); the next look tries again.
      delete kept.run;
      delete kept.startingSince;
      await this.deps.memory.saveMemory(machine.sprinklerId, kept);
      throw error;
    }
    delete kept.startingSince;
  }
}

/**
 * Each machine's pump group's peers: those of its group watering now, and those whose own
 * decision, alone, is to start now, with their slack (hours to their latest start).
 */
function pumpPeers(gathered: readonly { machine: WatchedMachine; input: GatheredInput }[]) {
  const alone = gathered.map(({ machine, input }) => ({
    machine,
    input,
    decision: input.rules.pumpGroup === null ? null : decideNext({ ...input, pump: { watering: [], due: [] } }),
  }));
  return (machine: WatchedMachine): PumpPeers => {
    const group = machine.rules.pumpGroup?.id;
    if (group === undefined) return { watering: [], due: [] };
    const others = alone.filter(
      (peer) => peer.machine.sprinklerId !== machine.sprinklerId && peer.input.rules.pumpGroup?.id === group,
    );
    const named = (peer: (typeof others)[number]) => ({ id: peer.machine.sprinklerId, name: peer.machine.name });
    return {
      watering: others.filter((peer) => peer.input.machine.watering !== null).map(named),
      due: others.flatMap((peer) => {
        const decision = peer.decision;
        if (decision === null || !startsNow(decision)) return [];
        const timing = decision.kind === 'reconcile' ? decision.then : decision;
        if (timing.kind !== 'start') return [];
        return [{ ...named(peer), slackHours: (timing.dueAt - peer.input.now) / HOUR_MS }];
      }),
    };
  };
}
