import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { autopilotRoutes } from './autopilot.routes';
import { AutopilotSettingsService } from './autopilot-settings.service';

declare module 'fastify' {
  interface FastifyInstance {
    autopilot: AutopilotSettingsService;
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
export { readMemory, saveMemory } from './autopilot-settings.repository';

/**
 * The module: `app.autopilot` (the settings service), its routes, and the takeover: the commands
 * module tells it of every command about to be sent, and a person's command or program to a
 * machine in auto turns that machine to suggest (docs/autopilot.md, "The modes and where they
 * are set").
 */
export const autopilotModule = fp(
  async (app: FastifyInstance) => {
    const { sprinklers, logs, commands } = app;
    const autopilot = new AutopilotSettingsService({ db: app.database.db, sprinklers, logs });
    app.decorate('autopilot', autopilot);
    commands.tellSendsTo(async (sending) => {
      await autopilot.takeOver(sending);
    });
    await app.register(autopilotRoutes, { prefix: '/api', autopilot });
  },
  {
    name: 'autopilot',
    dependencies: ['database', 'authentication', 'sprinklers', 'commands', 'logs'],
  },
);
