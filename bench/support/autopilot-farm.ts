/**
 * The demo farm as the autopilot's backtest runs it (bench/autopilot.ts): each of the five demo
 * machines with its arm (the simulator's own), its circle cut into 360 wedges of 1° (the cells),
 * its sectors and crop areas, each area's crop and soil on the FAO-56 balance of the server, and
 * what the server would read of it each day: the sectors' balance, the program from the advice.
 */
import {
  type CurrentProgramData,
  type ProgramData,
  type ProgramFromAdvice,
  type WaterBalance,
  type WaterBalanceArea,
  dottedOfIsoDate,
} from '@pivot/contracts';
import { type DemoCropArea, type DemoMachine, demoProgramOn, designFlow } from '@pivot/simulator';
import { type SafeProgram, safeProgramFromAdvice } from '@pivot/server/src/modules/advice/program-from-advice';
import type { AreaState } from '@pivot/server/src/modules/autopilot';
import { areasOf, fieldHectares, sectorShares } from '@pivot/server/src/modules/autopilot/autopilot-inputs';
import { type SeasonCrop, tableSeasonCrop } from '@pivot/server/src/modules/crop-seasons/season-crop';
import { SOIL_TEXTURES, type SoilWater } from '@pivot/server/src/modules/crop-seasons/soil-table';
import { withComingDays } from '@pivot/server/src/modules/water-balance/coming-days';
import {
  DEFAULT_APPLICATION_EFFICIENCY,
  type Outlook,
  expectedDepletions,
  irrigationDoses,
  nextIrrigation,
  outlookFromCurves,
} from '@pivot/server/src/modules/water-balance/irrigation-advice';
import { type SeasonCurves, seasonCurves } from '@pivot/server/src/modules/water-balance/water-balance';
import { seasonLength } from '@pivot/server/src/modules/crop-seasons/crop-coefficient';
import { addDays } from '@pivot/server/src/time/local-day';
import type { SeasonWeather } from './autopilot-weather';

export const WEDGES = 360;
export const EFFICIENCY = DEFAULT_APPLICATION_EFFICIENCY;
/** `PROGRAM_FROM_ADVICE_MARGIN_HOURS`' default. */
export const MARGIN_HOURS = 24;
/**
 * The pump's power, kW, from its flow: P = ρ·g·Q·H / η with a head H of 65 m (2.5 bar at the pivot,
 * some 30 m of lift from the well and the pipe's friction) and η 0.7 for the pump and its motor.
 */
export const PUMP_HEAD_M = 65;
export const PUMP_EFFICIENCY = 0.7;
const KW_PER_M3H_PER_M = 1 / 367;

function inWedge(bearing: number, from: number, to: number): boolean {
  const span = (((to - from) % 360) + 360) % 360 || 360;
  return (((bearing - from) % 360) + 360) % 360 < span;
}

/** A crop area's one season that overlaps the backtest. */
export type AreaModel = {
  name: string;
  crop: SeasonCrop;
  soil: SoilWater;
  emergence: string;
  /** Index of the emergence in the weather's days, and the season's length in days. */
  emergenceIndex: number;
  length: number;
  /** The wedges (cells) of the area the machine can water: a forbidden sector's are left out. */
  cells: number[];
  /** The season's curves on the true weather. */
  truth: SeasonCurves;
};

export type SectorModel = { name: string; cells: number[]; area: AreaModel | null };

export type MachineModel = {
  machine: DemoMachine;
  hectares: number;
  wedgeHectares: number;
  flow: number;
  pumpKw: number;
  pace: { depthAtFullSpeed: number; hoursPerCircle: number };
  areas: AreaModel[];
  sectors: SectorModel[];
  shares: Map<string, number>;
};

/** The area's season day of a weather day index (1 = emergence); in season while 1 … length. */
export function seasonDayOf(area: AreaModel, dayIndex: number): number {
  return dayIndex - area.emergenceIndex + 1;
}

export function inSeasonOn(area: AreaModel, dayIndex: number): boolean {
  const day = seasonDayOf(area, dayIndex);
  return day >= 1 && day <= area.length;
}

/** The emergence of the area's season that overlaps `first` … `last` (YYYY-MM-DD), if one does. */
export function seasonOverlapping(cropArea: DemoCropArea, first: string, last: string): string | null {
  const length = seasonLength(tableSeasonCrop(cropArea.crop).parameters.stages);
  const year = Number(first.slice(0, 4));
  for (const candidate of [year - 1, year, year + 1].map((y) => `${y}-${cropArea.emerges}`)) {
    if (candidate <= last && addDays(candidate, length - 1) >= first) return candidate;
  }
  return null;
}

export function machineModel(machine: DemoMachine, weather: SeasonWeather, first: string, last: string): MachineModel {
  const hectares = fieldHectares(machine.armLength);
  const flow = designFlow(machine.armLength);
  const hoursPerCircle = (2 * Math.PI * machine.armLength) / (machine.topSpeed * 60);
  const forbidden = (bearing: number) =>
    machine.sectors.some((sector) => sector.rate < 0 && inWedge(bearing, sector.from, sector.to));
  const areas: AreaModel[] = machine.cropAreas.flatMap((cropArea) => {
    const emergence = seasonOverlapping(cropArea, first, last);
    if (emergence === null) return [];
    const crop = tableSeasonCrop(cropArea.crop);
    const soil = SOIL_TEXTURES[cropArea.soil];
    const emergenceIndex = weather.indexOf(emergence);
    const days = weather.days.slice(emergenceIndex);
    const truth = seasonCurves(crop, soil, {
      referenceEvapotranspiration: days.map((day) => day.referenceEvapotranspiration),
      rain: days.map((day) => day.rain),
      wind: days.map((day) => day.wind),
      minHumidity: days.map((day) => day.minHumidity),
    });
    const cells = Array.from({ length: WEDGES }, (_, wedge) => wedge).filter(
      (wedge) => inWedge(wedge + 0.5, cropArea.from, cropArea.to) && !forbidden(wedge + 0.5),
    );
    return [
      {
        name: cropArea.name,
        crop,
        soil,
        emergence,
        emergenceIndex,
        length: seasonLength(crop.parameters.stages),
        cells,
        truth,
      },
    ];
  });
  const sectors = machine.sectors
    .filter((sector) => sector.rate >= 0)
    .map((sector) => {
      const cells = Array.from({ length: WEDGES }, (_, wedge) => wedge).filter((wedge) =>
        inWedge(wedge + 0.5, sector.from, sector.to),
      );
      const area = areas.find((candidate) => candidate.cells.includes(cells[Math.floor(cells.length / 2)]!)) ?? null;
      return { name: sector.name, cells, area };
    });
  const pivot = { centre: { lat: machine.lat, lng: machine.lng }, armLength: machine.armLength };
  return {
    machine,
    hectares,
    wedgeHectares: hectares / WEDGES,
    flow,
    pumpKw: (flow * PUMP_HEAD_M * KW_PER_M3H_PER_M) / PUMP_EFFICIENCY,
    // The machine's true pace: the server learns it from the telemetry (docs/advice.md, "The percent timer").
    pace: { depthAtFullSpeed: (flow * hoursPerCircle) / (hectares * 10), hoursPerCircle },
    areas,
    sectors,
    shares: sectorShares(machine.program.programData, pivot),
  };
}

/**
 * The coming days of an area as the balance of `dayIndex − 1` reads them: the true days from
 * emergence, then the forecast read on `dayIndex`, then the recent ET0 (the server's
 * `withComingDays`), on curves of their own. Kept per area and day: every strategy reads the same.
 */
export class Outlooks {
  private readonly kept = new Map<string, { outlook: Outlook; curves: SeasonCurves; lastDay: number }>();

  constructor(private readonly weather: SeasonWeather) {}

  of(area: AreaModel, dayIndex: number): { outlook: Outlook; curves: SeasonCurves; lastDay: number } {
    const key = `${area.name}:${area.emergence}:${dayIndex}`;
    const found = this.kept.get(key);
    if (found) return found;
    const lastDay = dayIndex - area.emergenceIndex;
    const measured = this.weather.days.slice(area.emergenceIndex, dayIndex);
    const weather = withComingDays(
      {
        referenceEvapotranspiration: measured.map((day) => day.referenceEvapotranspiration),
        rain: measured.map((day) => day.rain),
        wind: measured.map((day) => day.wind),
        minHumidity: measured.map((day) => day.minHumidity),
        reported: measured.map(() => true),
      },
      this.weather.forecastOn(this.weather.days[dayIndex]?.date ?? addDays(this.weather.firstDate, dayIndex)),
      area.length,
    );
    const curves = seasonCurves(area.crop, area.soil, weather);
    const made = { outlook: outlookFromCurves(curves, lastDay + 1), curves, lastDay };
    this.kept.set(key, made);
    return made;
  }
}

/**
 * The balance's sectors on `dayIndex − 1` (the last complete day), as the presenter gives them:
 * the mean depletion of the sector's cells, its next irrigation on the coming days, its doses.
 */
export function balanceSectors(
  model: MachineModel,
  depletionOf: (area: AreaModel) => Float64Array,
  outlooks: Outlooks,
  dayIndex: number,
  balanceDate: string,
): WaterBalanceArea[] {
  return model.sectors.flatMap((sector) => {
    const area = sector.area;
    if (area === null || !inSeasonOn(area, dayIndex - 1)) return [];
    const depletion = depletionOf(area);
    const values = sector.cells.map((cell) => depletion[area.cells.indexOf(cell)] ?? 0);
    const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
    const { outlook, curves, lastDay } = outlooks.of(area, dayIndex);
    const need = nextIrrigation(mean, outlook);
    const doses = need && irrigationDoses(need.netDose, EFFICIENCY, null);
    const day = lastDay - 1;
    return [
      {
        name: sector.name,
        taw: curves.totalAvailableWater[day]!,
        raw: curves.readilyAvailableWater[day]!,
        depletion: mean,
        depletionMin: Math.min(...values),
        depletionMax: Math.max(...values),
        ks: 1,
        etc: curves.cropEvapotranspiration[day]!,
        et0: 0,
        rain: 0,
        applied: 0,
        nextIrrigation: need === null ? null : dottedOfIsoDate(addDays(balanceDate, 1 + need.daysAhead)),
        netDose: doses ? doses.netDose : null,
        restDose: doses ? doses.restDose : null,
        grossDose: doses ? doses.grossDose : null,
        percentTimer: null,
        passes: null,
        expectedDepletion: need === null ? [] : expectedDepletions(mean, outlook),
      },
    ];
  });
}

/** The program the farmer has loaded on `date`: the demo's, dry over areas out of season. */
export function loadedProgram(machine: DemoMachine, date: string): CurrentProgramData {
  const upload = demoProgramOn(machine, date);
  return { type: 'FeatureCollection', name: upload.name, features: upload.programData.features };
}

/** The loaded program with every watering sector at one rate: the calendar's. */
export function programAtRate(program: CurrentProgramData, rate: number): ProgramData {
  return {
    type: 'FeatureCollection',
    features: program.features.map((sector) =>
      sector.properties.rate > 0 ? { ...sector, properties: { ...sector.properties, rate } } : sector,
    ),
  };
}

/** The program from the advice at `hoursIntoToday`, the arm where it stands, going front. */
export function programFromAdvice(
  model: MachineModel,
  loaded: CurrentProgramData,
  angle: number,
  advice: readonly WaterBalanceArea[],
  hoursIntoToday: number,
  balanceDate: string,
): SafeProgram {
  return safeProgramFromAdvice({
    program: loaded,
    pivot: { centre: { lat: model.machine.lat, lng: model.machine.lng }, armLength: model.machine.armLength },
    arm: { angle, direction: 'front' },
    pace: model.pace,
    advice,
    hoursIntoToday,
    marginHours: MARGIN_HOURS,
    balanceDate: dottedOfIsoDate(balanceDate),
  });
}

/** The decision's areas, as the watcher gathers them (`areasOf`). */
export function decisionAreas(
  model: MachineModel,
  advice: readonly WaterBalanceArea[],
  program: SafeProgram,
  balanceDate: string,
  timeZone: string,
): AreaState[] {
  const fromAdvice: ProgramFromAdvice = {
    date: dottedOfIsoDate(balanceDate),
    reason: program.programData === null ? 'nothing_due' : null,
    revolutionHours: program.revolutionHours,
    marginHours: MARGIN_HOURS,
    sectors: program.sectors,
    programData: program.programData,
  };
  // areasOf reads the balance's sectors alone.
  const balance = { sectors: [...advice] } as Pick<WaterBalance, 'sectors'> as WaterBalance;
  return areasOf(balance, fromAdvice, model.shares, model.hectares, timeZone);
}
