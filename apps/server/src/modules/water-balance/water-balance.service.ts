import {
  type LatLng,
  type ProbeDisagreement,
  type WaterBalance,
  type WaterBalanceQuery,
  type WaterBalanceReason,
  type WaterBalanceSeason,
  type WaterBalanceProbe,
  isoOfDottedDate,
} from '@pivot/contracts';
import type { SignedInUser } from '../../http/request-context';
import type { ForecastDay } from './forecast';
import type { SprinklersService } from '../sprinklers';
import type { WatermapService } from '../watermap';
import { listCropSeasons, runsOn } from '../crop-seasons';
import { dayNumber, lastCompleteDate, refuseDayAfterToday, yearOf } from './water-balance.days';
import { WaterBalanceCovers } from './water-balance.covers';
import {
  type BalanceInputs,
  type BalanceSources,
  type GridCell,
  claimCells,
  gatherInputs,
  gridCells,
  seasonStartReadings,
  zoneRecordsOf,
} from './water-balance.inputs';
import { KeptStates } from './water-balance.kept-state';
import { type Sector, emptyBalance, presentBalance, sectorsOf } from './water-balance.presenter';
import { planZones, reconcileWater } from './water-balance.reconcile';
import { SEASON_KEPT_BYTES_LIMIT, emptySeason, presentSeason, seasonStateBytes } from './water-balance.season';
import { type ZoneRun, correctZonesByProbes, runZones } from './water-balance.zones';

/** A day's balance before it is presented: its zones run, its sectors and probes; or why there are none. */
type DayRun =
  | { date: string; reason: WaterBalanceReason }
  | {
      date: string;
      reason: null;
      inputs: BalanceInputs;
      zones: ZoneRun[];
      sectors: Sector[];
      probes: WaterBalanceProbe[];
      disagreements: ProbeDisagreement[];
    };

export type WaterBalanceServiceDeps = BalanceSources & {
  sprinklers: SprinklersService;
  watermap: WatermapService;
  /** The seasons' kept states; a service of its own by default. */
  keptStates?: KeptStates;
};

/**
 * The soil-water balance of a machine's field at the end of a day (docs/advice.md): every crop
 * zone's cells run day by day from emergence on the station's weather and the watermap's water.
 * The steps, each in its own file: gather the inputs and claim each season's cells
 * (water-balance.inputs.ts), reconcile the kept states with the water (water-balance.reconcile.ts),
 * run the zones (water-balance.zones.ts), present the answer (water-balance.presenter.ts).
 */
export class WaterBalanceService {
  /** The seasons' kept states (docs/advice.md, "Kept state"). */
  readonly keptStates: KeptStates;

  /** Which cells each crop area and sector holds, per version of the map and the program. */
  readonly covers = new WaterBalanceCovers<GridCell>();

  /**
   * The season series' own kept states, with every day's cells (docs/advice.md, "The season
   * series"): apart from the balance's, so neither drops the other's, and bounded by the values they hold.
   */
  readonly seasonStates = new KeptStates(SEASON_KEPT_BYTES_LIMIT, seasonStateBytes);

  constructor(private readonly deps: WaterBalanceServiceDeps) {
    this.keptStates = deps.keptStates ?? new KeptStates();
  }

  /** The forecast's coming days at a position (`FORECAST_URL`); null without a forecast service, or when it fails. */
  async forecastDays(position: LatLng): Promise<ForecastDay[] | null> {
    return this.deps.forecast ? this.deps.forecast.daily(position) : null;
  }

  async balance(actor: SignedInUser, sprinklerId: number, query: WaterBalanceQuery): Promise<WaterBalance> {
    const run = await this.runDay(actor, sprinklerId, query, this.keptStates, false);
    if (run.reason !== null) return emptyBalance(run.date, run.reason);
    return presentBalance(run.date, run.inputs, run.zones, run.sectors, run.probes, run.disagreements);
  }

  /**
   * Every zone's and sector's season day by day through the day asked for, and on to its next
   * irrigation: the days the balance of that day steps, from the season's own kept states.
   */
  async season(actor: SignedInUser, sprinklerId: number, query: WaterBalanceQuery): Promise<WaterBalanceSeason> {
    const run = await this.runDay(actor, sprinklerId, query, this.seasonStates, true);
    if (run.reason !== null) return emptySeason(run.date, run.reason);
    return presentSeason(run.date, run.inputs, run.zones, run.sectors);
  }

  private async runDay(
    actor: SignedInUser,
    sprinklerId: number,
    query: WaterBalanceQuery,
    keptStates: KeptStates,
    withDays: boolean,
  ): Promise<DayRun> {
    const { db, sprinklers, watermap, timeZone } = this.deps;
    const sprinkler = await sprinklers.accessible(actor, sprinklerId);
    const date = query.date === undefined ? lastCompleteDate(timeZone) : isoOfDottedDate(query.date);
    refuseDayAfterToday(date, timeZone);
    const lastDay = dayNumber(date);
    const seasons = (await listCropSeasons(db, sprinkler.id)).filter((season) => runsOn(season, date));
    if (seasons.length === 0) return { date, reason: 'no_season' };
    const inputs = await gatherInputs(this.deps, sprinkler, seasons, date);
    if (inputs === null) return { date, reason: 'no_weather_station' };

    const grid = this.covers.grid(sprinkler, () => gridCells(inputs.grid, sprinkler.armLength));
    const claims = await claimCells(this.covers, grid, sprinkler.areaMap, seasons);
    const startReadings = await seasonStartReadings(this.deps, sprinkler, inputs.grid, claims);

    const { program } = inputs;
    const sectorCells = program && (await this.covers.program(grid, program.version, program.programData));
    const zoneRecords = zoneRecordsOf(
      inputs.records,
      claims,
      program?.programData ?? null,
      sectorCells,
      grid.cells.length,
    );

    const years = { firstYear: yearOf(inputs.firstDay), lastYear: yearOf(lastDay) };
    const plans = planZones(keptStates, claims, startReadings, { ...inputs, years, lastDay, zoneRecords });
    const water = await reconcileWater(watermap, sprinkler.internalId, plans, years);

    const lastCompleteDay = dayNumber(lastCompleteDate(timeZone));
    const zones = runZones(keptStates, plans, water, { inputs, lastDay, lastCompleteDay, years, withDays });
    const probes = correctZonesByProbes(zones, plans, inputs);
    const sectors = program && sectorCells ? sectorsOf(program.programData, sectorCells, zones, grid.cells.length) : [];
    return { date, reason: null, inputs, zones, sectors, probes: probes.probes, disagreements: probes.disagreements };
  }
}
