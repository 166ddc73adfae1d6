import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { CommandHands } from './autopilot-hands';
import type { AutopilotSources } from './autopilot-inputs';
import { parseMemory } from './autopilot-memory';
import { AutopilotPlanService } from './autopilot-plan.service';
import { claimStart, readMemory, saveMemory } from './autopilot-settings.repository';
import { AutopilotSettingsService } from './autopilot-settings.service';
import { AutopilotStartService } from './autopilot-start.service';
import { AutopilotWatch, startClaimStaleMs } from './autopilot-watch';
import { autopilotRoutes } from './autopilot.routes';
import { AutopilotDecisionLog } from './decision-log';

declare module 'fastify' {
  interface FastifyInstance {
    autopilot: AutopilotSettingsService;
    autopilotWatch: AutopilotWatch;
  }
}

/**
 * The autopilot (issue "Autopilot", docs/autopilot.md): each machine's mode and rules, stored and
 * set through its API; the farm's rules on the calendar, the decision for a machine at a moment,
 * and its text in the reader's language (the pure core). No watcher yet.
 */
export { allowedAt, localClock, ruleBoundaries, tariffAt, windowCovers } from './autopilot-rules';
export type { AutopilotRules, AutopilotRulesInput, Tariff, TariffZone, WeeklyWindow } from './autopilot-rules';
export { FROST_RESUME_MARGIN_C, PLANNING_HOURS, STATION_FRESH_MS, WIND_RESUME_MARGIN_MS, decideNext } from './decide';
export type {
  AllowanceFigures,
  AreaState,
  Decision,
  DecisionBody,
  DecisionInput,
  DecisionKind,
  HourlyRain,
  MachineState,
  PassWater,
  PumpPeers,
  QueueDecision,
  RainSkipped,
  RefuseReason,
  StartDecision,
  StationReading,
  TimingDecision,
  WaitDecision,
  ZoneAt,
} from './decide';
export { explainDecision, spokenMoment } from './explain';
export type { AutopilotSettingsService, WatchedAutopilot } from './autopilot-settings.service';
export { claimStart, readMemory, saveMemory } from './autopilot-settings.repository';
export type { AutopilotWatch, FollowUp, PassActor, PumpMember } from './autopilot-watch';
export { beginRun, followDecision, pumpPeersOf, startClaimStaleMs, startNow } from './autopilot-watch';
export type { AutopilotMemory } from './autopilot-memory';

/**
 * The module: `app.autopilot` (the settings service), its routes, the takeover (the commands
 * module tells it of every command about to be sent, and a person's command or program to a
 * machine in auto turns that machine to suggest), the watcher (`app.autopilotWatch`), the plan
 * and the one-tap start of the pass the autopilot would start now (docs/autopilot.md).
 */
export const autopilotModule = fp(
  async (app: FastifyInstance, config: Pick<Config, 'timeZone' | 'autopilotLookMs' | 'commandTimeoutMs'>) => {
    const { sprinklers, logs, commands, incidentDesk, weather, waterBalance, programFromAdvice, telemetry } = app;
    const { db } = app.database;
    const autopilot = new AutopilotSettingsService({
      db,
      sprinklers,
      logs,
      turnedOff: async (machine) => {
        await incidentDesk.end(machine, 'irrigation_due', Date.now());
        const { dueAlerted, ...memory } = parseMemory(await readMemory(db, machine.id));
        if (dueAlerted) await saveMemory(db, machine.id, memory);
      },
    });
    app.decorate('autopilot', autopilot);
    commands.tellSendsTo(async (sending) => {
      await autopilot.takeOver(sending);
    });
    const sources: AutopilotSources = {
      sprinklers,
      waterBalance,
      programFromAdvice,
      openIncidents: () => incidentDesk.openKinds(),
      rainSince: async (centre, firstDate, lastDate) => {
        const { days } = await weather.dailyWeatherNear(db, centre, firstDate, lastDate);
        return days.reduce((sum, day) => sum + day.rain, 0);
      },
      timeZone: config.timeZone,
    };
    // The machines the watcher looks at, with their memory: the plan finds a pump group's peers among them.
    const watched = async () =>
      (await autopilot.watched()).map((machine) => ({ ...machine, memory: parseMemory(machine.memory) }));
    const decisionLog = new AutopilotDecisionLog({ db, logs, timeZone: config.timeZone });
    logs.tellEventsWith('sprinkler_autopilot_decision', (entry, reader) => decisionLog.told(entry, reader));
    const watch = new AutopilotWatch({
      sources,
      dueAlerts: incidentDesk,
      memory: {
        watched,
        saveMemory: (sprinklerId, memory, runWas) => saveMemory(db, sprinklerId, memory, runWas),
        claimStart: (sprinklerId, now, staleBefore, runWas) => claimStart(db, sprinklerId, now, staleBefore, runWas),
      },
      hands: new CommandHands({ db, commands, telemetry, logs }),
      log: decisionLog,
      claimLook: (now, withinMs) => incidentDesk.claimJobRun('autopilot', now, withinMs),
      logger: app.log,
      everyMs: config.autopilotLookMs,
      claimStaleMs: startClaimStaleMs(config.commandTimeoutMs),
    });
    app.decorate('autopilotWatch', watch);
    const plan = new AutopilotPlanService({
      db,
      sprinklers,
      settings: autopilot,
      watched,
      sources,
      openIncidents: sources.openIncidents,
    });
    const start = new AutopilotStartService({ db, sprinklers, settings: autopilot, sources, watch });
    await app.register(autopilotRoutes, { prefix: '/api', autopilot, plan, start });
    app.addHook('onReady', async () => {
      watch.start();
    });
    // Before the gateway and the database close: the last look finishes first.
    app.addHook('preClose', () => watch.stop());
  },
  {
    name: 'autopilot',
    dependencies: [
      'database',
      'authentication',
      'sprinklers',
      'commands',
      'logs',
      'telemetry',
      'weather',
      'water-balance',
      'advice',
      'incidents',
    ],
  },
);
