export { type Credentials, readCredentialsFile, writeCredentialsFile } from './credentials-file';
export {
  DEMO_ELEVATION_M,
  DEMO_MACHINES,
  DEMO_TOP_SPEED_M_PER_MIN,
  type DemoCropArea,
  type DemoMachine,
  type MonthDay,
  demoProbes,
  demoProgramOn,
  harvestAfter,
  inSeason,
  lastEmergence,
} from './demo-farm';
export { DEMO_TIME_SCALE, type DemoFleetOptions, createDemoFleet, startDemoFleet } from './demo-fleet';
export { type DemoHistory, type MachineHistory, type StationHistory, simulateDemoHistory } from './demo-history';
export {
  Fleet,
  type FleetIntervals,
  type FleetOptions,
  type GeneratedFleetOptions,
  createFleet,
  startFleet,
} from './fleet';
export { CONSOLE_HELP, type ConsoleCommand, ConsoleError, FleetConsole, parseConsoleLine } from './fleet-console';
export {
  type FleetLayout,
  type MachineSite,
  type SensorSite,
  type StationSite,
  generateMachineSites,
  siteId,
  surroundings,
} from './fleet-layout';
export { type PivotGeometry, type Sweep, designFlow } from './irrigation';
export { type LogLevel, type Logger, createLogger, silentLogger } from './logger';
export {
  MACHINE_MISBEHAVIOURS,
  type MachineMisbehaviour,
  type ScheduledMisbehaviour,
  misbehave,
} from './machine-misbehaviour';
export { MISBEHAVIOUR_KINDS, type MisbehaviourKind, type MisbehaviourShares } from './misbehaviour';
export { type CurrentProgram, PivotArm, type PivotSpec } from './pivot-arm';
export { PivotMachine, type PivotMachineOptions, type PivotMachineState, type ProgramUpload } from './pivot-machine';
export { createRandom } from './random';
export { type SimulatedDayOptions, type SimulatedReport, simulateDay } from './simulated-day';
export { SoilSensor, type SoilSensorOptions } from './soil-sensor';
export { WeatherStation, type WeatherStationOptions } from './weather-station';
