import type { AutopilotPlan, AutopilotPlannedPass } from '@pivot/contracts';
import type { Database } from '../../db/client';
import type { SignedInUser } from '../../http/request-context';
import type { SprinklersService } from '../sprinklers';
import { type AutopilotSources, type WatchedMachine, gatherInput } from './autopilot-inputs';
import { parseMemory } from './autopilot-memory';
import { type PlannedPass, planComingPasses } from './autopilot-plan';
import type { AutopilotSettingsService } from './autopilot-settings.service';
import { readMemory } from './autopilot-settings.repository';
import { decideNext } from './decide';
import { explainDecision } from './explain';

/** The days the plan looks ahead. */
export const PLAN_DAYS = 7;
const HOUR_MS = 60 * 60_000;

const BLOCKING_REASONS = new Set(['no_season', 'no_weather_station', 'no_program', 'pace_unknown'] as const);
type BlockingReason = AutopilotPlan['reason'];

/**
 * The plan on the machine page (docs/autopilot.md, "The plan"): the decision of now and the
 * passes of the coming days, for whoever sees the machine, in their language.
 */
export class AutopilotPlanService {
  constructor(
    private readonly deps: {
      db: Database;
      sprinklers: Pick<SprinklersService, 'accessible'>;
      settings: Pick<AutopilotSettingsService, 'settingsFor'>;
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
    const input = await gatherInput(sources, machine, await this.deps.openIncidents(), now);
    const alone = { ...input, pump: { watering: [], due: [] } };
    const decision = decideNext(alone);
    const programReason = input.program.reason;
    const reason: BlockingReason =
      programReason !== null && BLOCKING_REASONS.has(programReason as NonNullable<BlockingReason>)
        ? (programReason as NonNullable<BlockingReason>)
        : null;
    // The autopilot's own pass going on: the plan starts after it, its sectors refilled. Or its
    // last pass, ended after the balance's day: its sectors (not due now) refilled at its end.
    const { run, watered } = machine.memory;
    const wateredAreas = (watered?.areas ?? []).filter((name) =>
      input.areas.some((area) => area.name === name && area.triggerAt === null),
    );
    const running =
      input.machine.watering === 'autopilot' && run !== undefined
        ? { until: run.startedAt + run.revolutionHours * HOUR_MS, areas: run.areas }
        : watered !== undefined && wateredAreas.length > 0
          ? { until: watered.at, areas: wateredAreas }
          : null;
    const passes =
      reason === null
        ? planComingPasses(alone, {
            revolutionHours: input.program.revolutionHours,
            pumpKw: stored.rules.pumpKw,
            etcMm: input.etcMm,
            days: PLAN_DAYS,
            running,
          })
        : [];
    const { language } = actor;
    const { timeZone } = sources;
    return {
      mode: stored.mode,
      decidedAt: now,
      days: PLAN_DAYS,
      now: { kind: decision.kind, text: explainDecision(decision, language, now, timeZone) },
      passes: passes.map((pass) => presentPass(pass, language, now, timeZone)),
      reason,
    };
  }
}

/** A planned pass told as the start it is: when, in which zone, by when it is due. */
function presentPass(
  pass: PlannedPass,
  language: SignedInUser['language'],
  now: number,
  timeZone: string,
): AutopilotPlannedPass {
  const { decision, ...figures } = pass;
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
  return { ...figures, text };
}
