/**
 * What the autopilot's decision is given for one machine (docs/autopilot.md, "What a decision is
 * given"), gathered from the other modules' doors: the machine's live state and open incidents,
 * its sectors' balance and the program from the advice, the forecast's rain, the nearest station,
 * the season's water. The server's own look: it reads every machine as the system does.
 */
import {
  type AutopilotRules,
  type IncidentKind,
  type ProgramData,
  type ProgramFromAdvice,
  type SprinklerDetail,
  type WaterBalance,
  type WaterBalanceSeason,
  isoOfDottedDate,
  sectorUnderArm,
} from '@pivot/contracts';
import type { SignedInUser } from '../../http/request-context';
import { addDays, localDate, localInstant } from '../../time/local-day';
import type { ForecastDay, WaterBalanceService } from '../water-balance';
import type { AreaState, DecisionInput, HourlyRain, StationReading } from './decide';
import type { AutopilotMemory } from './autopilot-memory';

const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;
const SQUARE_METRES_PER_HECTARE = 10_000;
/** A sector's share of the circle is counted on this many headings of the arm. */
const SHARE_HEADINGS = 360;
/** M³ per mm over one hectare. */
const M3_PER_MM_HA = 10;

/** The system's own look: no user asks, every machine counts. */
export const SYSTEM_ACTOR: SignedInUser = { id: 0, email: '', admin: true, language: 'en' };

/**
 * The incidents that keep the autopilot from starting a machine: it is not well. Water stress
 * is what the autopilot answers, not a reason to hold back.
 */
export const SAFETY_INCIDENTS: readonly IncidentKind[] = ['alarm', 'unexpected_stop', 'offline', 'low_pressure'];

/** A machine the autopilot looks at: its mode, rules and its own memory. */
export type WatchedMachine = {
  sprinklerId: number;
  internalId: string;
  name: string;
  mode: 'suggest' | 'auto';
  rules: AutopilotRules;
  memory: AutopilotMemory;
};

export type GatheredInput = Omit<DecisionInput, 'pump'> & {
  detail: SprinklerDetail;
  /** The program from the advice: what a pass sends, and the hours a revolution takes. */
  program: ProgramFromAdvice;
  /** Each sector's ETc of the balance's day, mm/day: when a sector is due again after a pass (the plan). */
  etcMm: Map<string, number>;
};

/** A machine the autopilot looks at, with what its decision is given. */
export type GatheredMachine = { machine: WatchedMachine; input: GatheredInput };

export type AutopilotSources = {
  sprinklers: {
    accessible(actor: SignedInUser, id: number): Promise<{ armLength: number }>;
    detail(actor: SignedInUser, id: number): Promise<SprinklerDetail>;
  };
  waterBalance: Pick<WaterBalanceService, 'balance' | 'season' | 'forecastDays'>;
  programFromAdvice: { programFor(actor: SignedInUser, id: number): Promise<ProgramFromAdvice> };
  /** The open incidents' kinds of each machine, by broker ID. */
  openIncidents(): Promise<Map<string, readonly IncidentKind[]>>;
  /** The rain that fell at the machine on each local day from `firstDate` through `lastDate`, mm. */
  rainSince(centre: { lat: number; lng: number }, firstDate: string, lastDate: string): Promise<number>;
  timeZone: string;
};

/** The share of the circle each program sector holds, by the headings of the arm that fall in it. */
export function sectorShares(
  program: Pick<ProgramData, 'features'> | null,
  pivot: { centre: { lat: number; lng: number }; armLength: number },
): Map<string, number> {
  const shares = new Map<string, number>();
  if (program === null) return shares;
  for (let heading = 0; heading < SHARE_HEADINGS; heading += 1) {
    const sector = sectorUnderArm(program, pivot, heading + 0.5);
    if (sector) shares.set(sector.properties.name, (shares.get(sector.properties.name) ?? 0) + 1 / SHARE_HEADINGS);
  }
  return shares;
}

/** The circle the arm sweeps, ha. */
export function fieldHectares(armLength: number): number {
  return (Math.PI * armLength * armLength) / SQUARE_METRES_PER_HECTARE;
}

/**
 * The instant an area passes its trigger: the start of the day the balance gives as its next
 * irrigation (its depletion reaches RAW during that day, so the day's start is the safe side).
 */
function triggerInstant(nextIrrigation: string | null, timeZone: string): number | null {
  return nextIrrigation === null ? null : localInstant(timeZone, isoOfDottedDate(nextIrrigation), 0);
}

/** The sectors of the machine's program as the decision reads them. */
export function areasOf(
  balance: WaterBalance,
  program: ProgramFromAdvice,
  shares: ReadonlyMap<string, number>,
  hectares: number,
  timeZone: string,
): AreaState[] {
  const arrival = new Map(program.sectors.map((sector) => [sector.name, sector.arrivalHours]));
  return balance.sectors.map((sector) => ({
    name: sector.name,
    depletionMm: sector.depletion,
    rawMm: sector.raw,
    tawMm: sector.taw,
    triggerAt: triggerInstant(sector.nextIrrigation, timeZone),
    armHours: arrival.get(sector.name) ?? 0,
    netMm: sector.netDose ?? 0,
    grossMm: sector.grossDose ?? 0,
    hectares: (shares.get(sector.name) ?? 0) * hectares,
  }));
}

/**
 * The areas the autopilot's last pass watered after the balance's day, as that pass left them:
 * the balance holds the days before today, so the water of today is not in it yet. Each is taken
 * as refilled by its net dose, and due again once its crop has used its RAW at its ETc; without
 * its ETc, not before the next day, when the balance holds the pass.
 */
export function notWateredSince(
  areas: AreaState[],
  memory: AutopilotMemory,
  balanceDate: string,
  timeZone: string,
  etcMm: ReadonlyMap<string, number> = new Map(),
): AreaState[] {
  const { watered } = memory;
  const wateredOn = watered === undefined ? undefined : localDate(timeZone, watered.at);
  if (watered === undefined || wateredOn === undefined || wateredOn <= isoOfDottedDate(balanceDate)) return areas;
  const nextDay = localInstant(timeZone, addDays(wateredOn, 1), 0);
  return areas.map((area) => {
    if (!watered.areas.includes(area.name)) return area;
    const depletionMm = Math.max(0, area.depletionMm - area.netMm);
    const etc = etcMm.get(area.name);
    const triggerAt = etc && etc > 0 ? watered.at + (Math.max(0, area.rawMm - depletionMm) / etc) * DAY_MS : nextDay;
    return { ...area, depletionMm, triggerAt };
  });
}

/**
 * The forecast's daily rain as hours: each day's rain spread evenly over its 24 hours, since the
 * forecast read gives days (docs/autopilot.md, "Assumed").
 */
export function hourlyRain(days: readonly ForecastDay[] | null, timeZone: string): HourlyRain[] {
  if (days === null) return [];
  return days.flatMap((day) => {
    const start = localInstant(timeZone, day.date, 0);
    const end = localInstant(timeZone, addDays(day.date, 1), 0);
    const hours = Math.round((end - start) / HOUR_MS);
    return Array.from({ length: hours }, (_, hour) => ({ at: start + hour * HOUR_MS, mm: day.rain / hours }));
  });
}

/** The nearest station's reading while it is current; null when none is, or it gives no wind. */
export function stationReading(detail: SprinklerDetail, now: number): StationReading | null {
  const station = detail.weather_stations[0];
  if (!station || station.wind === undefined) return null;
  if (station.expire_timestamp !== undefined && station.expire_timestamp <= now) return null;
  return { at: now, windMs: station.wind, temperatureC: station.temperature };
}

/** The water the machine put on its sectors this season: m³, and mm over its field. */
export function seasonWater(
  season: WaterBalanceSeason,
  shares: ReadonlyMap<string, number>,
  hectares: number,
): { usedM3: number; usedMm: number } {
  const usedM3 = season.sectors.reduce(
    (sum, sector) =>
      sum +
      sector.applied.reduce((total, mm) => total + mm, 0) * (shares.get(sector.name) ?? 0) * hectares * M3_PER_MM_HA,
    0,
  );
  return { usedM3, usedMm: hectares > 0 ? usedM3 / (hectares * M3_PER_MM_HA) : 0 };
}

/** Everything the decision for one machine is given but its pump group's peers. */
export async function gatherInput(
  sources: AutopilotSources,
  machine: WatchedMachine,
  openIncidents: ReadonlyMap<string, readonly IncidentKind[]>,
  now: number,
): Promise<GatheredInput> {
  const { sprinklers, waterBalance, programFromAdvice, timeZone } = sources;
  const [{ armLength }, detail] = await Promise.all([
    sprinklers.accessible(SYSTEM_ACTOR, machine.sprinklerId),
    sprinklers.detail(SYSTEM_ACTOR, machine.sprinklerId),
  ]);
  const centre = { lat: Number(detail.lat), lng: Number(detail.lng) };
  const [balance, season, program, forecast] = await Promise.all([
    waterBalance.balance(SYSTEM_ACTOR, machine.sprinklerId, {}),
    waterBalance.season(SYSTEM_ACTOR, machine.sprinklerId, {}),
    programFromAdvice.programFor(SYSTEM_ACTOR, machine.sprinklerId),
    waterBalance.forecastDays(centre),
  ]);
  const hectares = fieldHectares(armLength);
  const shares = sectorShares(detail.currentProgramData, { centre, armLength });
  const { memory } = machine;
  const etcMm = new Map(balance.sectors.map((sector) => [sector.name, sector.etc]));
  const running = detail.status === 'front' || detail.status === 'back';
  const lastSkip =
    memory.lastSkip === undefined
      ? null
      : {
          ...memory.lastSkip,
          fallenMm: await sources.rainSince(centre, localDate(timeZone, memory.lastSkip.at), localDate(timeZone, now)),
        };
  return {
    now,
    timeZone,
    mode: machine.mode,
    machine: {
      id: machine.sprinklerId,
      name: machine.name,
      online: detail.online,
      alarm: detail.status === 'alarm',
      openIncident: SAFETY_INCIDENTS.find((kind) => openIncidents.get(machine.internalId)?.includes(kind)) ?? null,
      watering: running ? (memory.run ? 'autopilot' : 'farmer') : null,
      pausedBy: memory.pausedBy ?? null,
      hectares,
    },
    areas: notWateredSince(
      areasOf(balance, program, shares, hectares, timeZone),
      memory,
      balance.date,
      timeZone,
      etcMm,
    ),
    forecastRain: hourlyRain(forecast, timeZone),
    station: stationReading(detail, now),
    rules: machine.rules,
    season: seasonWater(season, shares, hectares),
    lastSkip,
    programReady: program.programData !== null,
    detail,
    program,
    etcMm,
  };
}

/**
 * The other machines of `machine`'s pump group among those the watcher looks at (`watched`),
 * gathered as the watcher gathers them (every machine read as the system does); one that cannot be
 * read is left out, as the watcher leaves it out of its look.
 */
export async function gatherPumpPeers(
  sources: AutopilotSources,
  machine: WatchedMachine,
  watched: readonly WatchedMachine[],
  openIncidents: ReadonlyMap<string, readonly IncidentKind[]>,
  now: number,
): Promise<GatheredMachine[]> {
  const group = machine.rules.pumpGroup;
  if (group === null) return [];
  const peers = watched.filter(
    (peer) => peer.sprinklerId !== machine.sprinklerId && peer.rules.pumpGroup?.id === group.id,
  );
  const gathered = await Promise.all(
    peers.map(async (peer) => {
      try {
        return [{ machine: peer, input: await gatherInput(sources, peer, openIncidents, now) }];
      } catch {
        return [];
      }
    }),
  );
  return gathered.flat();
}
