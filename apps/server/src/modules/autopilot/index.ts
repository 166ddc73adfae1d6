/**
 * The autopilot (issue "Autopilot", docs/autopilot.md): its first, pure step. The farm's rules on
 * the calendar, the decision for a machine at a moment, and its text in the reader's language. No
 * routes, tables or watcher yet: the app does not register this module.
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
