import type { AutopilotPlan, AutopilotPlannedPass } from '@pivot/contracts';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import type { SignedInUser } from '../../http/request-context';
import type { SprinklersService } from '../sprinklers';
import {
  type AutopilotSources,
  type GatheredInput,
  type GatheredMachine,
  type WatchedMachine,
  gatherInput,
  gatherPumpPeers,
} from './autopilot-inputs';
import { parseMemory } from './autopilot-memory';
import { type PlannedPass, type PumpGroupMember, planPumpGroup } from './autopilot-plan';
import type { AutopilotSettingsService } from './autopilot-settings.service';
import { readMemory } from './autopilot-settings.repository';
import { pumpPeersOf } from './autopilot-watch';
import { decideNext } from './decide';
import { explainDecision, peersSeenBy } from './explain';

/** The days the plan looks ahead. */
export const PLAN_DAYS = 7;
const HOUR_MS = 60 * 60_000;

const BLOCKING_REASONS = new Set(['no_season', 'no_weather_station', 'no_program', 'pace_unknown'] as const);
type BlockingReason = AutopilotPlan['reason'];
/** The name a pump peer the reader is not granted goes by while the decision of now is made: never told. */
const UNSEEN = '\u0000';

/**
 * The plan on the machine page (docs/autopilot.md, "The plan"): the decision of now and the
 * passes of the coming days, for whoever sees the machine, in their language. A machine sharing a
 * pump is planned with the group's other machines in suggest or auto, as the watcher decides them;
 * those the reader is not granted hold the pump all the same, but are not named.
 */
export class AutopilotPlanService {
  constructor(
    private readonly deps: {
      db: Database;
      sprinklers: Pick<SprinklersService, 'accessible'>;
      settings: Pick<AutopilotSettingsService, 'settingsFor'>;
      /** The machines the watcher looks at, with their memory (its `watched`): a pump group's peers. */
      watched: () => Promise<WatchedMachine[]>;
      sources: AutopilotSources;
      openIncidents: AutopilotSources['openIncidents'];
      clock?: () => number;
    },
  ) {}

  async planFor(actor: SignedInUser, sprinklerId: number): Promise<AutopilotPlan> {
    const { db, sprinklers, settings, sources } = this.deps;
    const row = await sprinklers.accessible(actor, sprinklerId);
    const stored = await settings.settingsFor(actor, sprinklerId);
    const now = this.deps.clock?.() ?? Date.now();
    const machine: WatchedMachine = {
      sprinklerId,
      internalId: row.internalId,
      name: row.name,
      // Off, the plan shows what suggest would say.
      mode: stored.mode === 'off' ? 'suggest' : stored.mode,
      rules: stored.rules,
      memory: parseMemory(await readMemory(db, sprinklerId)),
    };
    const incidents = await this.deps.openIncidents();
    const input = await gatherInput(sources, machine, incidents, now);
    const peers = await gatherPumpPeers(sources, machine, await this.deps.watched(), incidents, now);
    const seen = new Set([sprinklerId]);
    for (const peer of peers) if (await this.sees(actor, peer.machine.sprinklerId)) seen.add(peer.machine.sprinklerId);
    const group: GatheredMachine[] = [{ machine, input }, ...peers];
    const { language } = actor;
    const { timeZone } = sources;
    // The decision of now, as the watcher takes it: with the pump's peers watering or due now.
    const pump = pumpPeersOf(
      group.map((member) => ({
        id: member.machine.sprinklerId,
        name: seen.has(member.machine.sprinklerId) ? member.machine.name : UNSEEN,
        input: member.input,
      })),
    );
    const decision = peersSeenBy(decideNext({ ...input, pump: pump(sprinklerId) }), {
      language,
      seesAll: false,
      sees: (id) => seen.has(id),
    });
    const reason = blockingReason(input);
    const passes =
      reason === null ? (planPumpGroup(group.map((member) => memberOf(member, now))).get(sprinklerId) ?? []) : [];
    return {
      mode: stored.mode,
      decidedAt: now,
      days: PLAN_DAYS,
      timeZone,
      now: { kind: decision.kind, text: explainDecision(decision, language, now, timeZone) },
      passes: passes.map((pass) => presentPass(pass, seen, language, now, timeZone)),
      reason,
    };
  }

  /** Whether the machine is granted to the reader (administrators see every machine). */
  private async sees(actor: SignedInUser, sprinklerId: number): Promise<boolean> {
    try {
      await this.deps.sprinklers.accessible(actor, sprinklerId);
      return true;
    } catch (error) {
      if (error instanceof AppError && error.code === 'sprinkler_not_found') return false;
      throw error;
    }
  }
}

/** Why the advice gives a machine nothing to plan with, if it does not. */
function blockingReason(input: GatheredInput): BlockingReason {
  const programReason = input.program.reason;
  return programReason !== null && BLOCKING_REASONS.has(programReason as NonNullable<BlockingReason>)
    ? (programReason as NonNullable<BlockingReason>)
    : null;
}

/**
 * A machine as its pump group is planned: its plan's options (none when the advice gives nothing
 * to plan with), and until when a run going on holds the pump.
 */
function memberOf({ machine, input }: GatheredMachine, now: number): PumpGroupMember {
  // The autopilot's own pass going on: the plan starts after it, its sectors refilled. Or its
  // last pass, ended after the balance's day: its sectors (not due now) refilled at its end.
  const { run, watered } = machine.memory;
  const wateredAreas = (watered?.areas ?? []).filter((name) =>
    input.areas.some((area) => area.name === name && area.triggerAt === null),
  );
  const ownRun = input.machine.watering === 'autopilot' && run !== undefined;
  const running = ownRun
    ? { until: run.startedAt + run.revolutionHours * HOUR_MS, areas: run.areas }
    : watered !== undefined && wateredAreas.length > 0
      ? { until: watered.at, areas: wateredAreas }
      : null;
  const { revolutionHours } = input.program;
  // A farmer's run is not known to end: it is taken to hold the pump for a revolution from now.
  const holdsPumpUntil = ownRun
    ? running!.until
    : input.machine.watering === 'farmer'
      ? now + Math.max(revolutionHours ?? 1, 1) * HOUR_MS
      : null;
  return {
    id: machine.sprinklerId,
    name: machine.name,
    input: { ...input, pump: { watering: [], due: [] } },
    options:
      blockingReason(input) === null
        ? { revolutionHours, pumpKw: machine.rules.pumpKw, etcMm: input.etcMm, days: PLAN_DAYS, running }
        : null,
    holdsPumpUntil,
  };
}

/** A planned pass told as the start it is: when, in which zone, by when it is due, and whom it waits for. */
function presentPass(
  pass: PlannedPass,
  seen: ReadonlySet<number>,
  language: SignedInUser['language'],
  now: number,
  timeZone: string,
): AutopilotPlannedPass {
  const { decision, queued, ...figures } = pass;
  const text = explainDecision(
    {
      kind: 'start',
      at: pass.at,
      zone: pass.zone,
      areas: pass.areas,
      dueAt: pass.dueAt,
      late: pass.late,
      water: { m3: pass.waterM3, mm: pass.waterMm },
      allowanceWarning: decision.allowanceWarning,
    },
    language,
    now,
    timeZone,
  );
  return {
    ...figures,
    queued:
      queued === null
        ? null
        : {
            wouldStartAt: queued.wouldStartAt,
            behind: queued.behind.filter((peer) => seen.has(peer.id)).map((peer) => peer.name),
            unnamed: queued.behind.filter((peer) => !seen.has(peer.id)).length,
          },
    text,
  };
}
