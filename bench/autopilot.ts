/**
 * The autopilot's backtest (issue "Autopilot", item 5; docs/autopilot.md, "The backtest"): whole
 * seasons of the demo's five machines in simulated time, with no server, database or wall clock,
 * under three strategies on the same weather:
 *
 * - calendar: a fixed pass every few days, as a careful farmer sets it for the peak of the season;
 * - advice by hand: the farmer looks at 07:00 and, when the advice says a sector is due today,
 *   sends the program from the advice and starts the machine, stopping it after a turn;
 * - auto: the server's `decideNext` every 10 minutes with the farm's rules, acted on as the
 *   watcher acts (start with the program from the advice, stop after its revolution, pause and
 *   resume for the wind and the frost, remember a rain skip).
 *
 * The physics: the simulator's arm (its speed from each sector's rate, its water on the wedges it
 * sweeps), the server's FAO-56 balance day by day on 1° wedges, its advice and program from the
 * advice. Figures are printed beside the goals, never asserted.
 */
import { performance } from 'node:perf_hooks';
import {
  type AutopilotRules,
  AutopilotRulesSchema,
  type ProgramData,
  TARIFF_PRESETS,
  TariffSchema,
  type WaterBalanceArea,
  dottedOfIsoDate,
} from '@pivot/contracts';
import { DEMO_MACHINES, PivotArm, createRandom } from '@pivot/simulator';
import type { SafeProgram } from '@pivot/server/src/modules/advice/program-from-advice';
import {
  type AreaState,
  type AutopilotMemory,
  type Decision,
  type DecisionInput,
  type HourlyRain,
  decideNext,
  followDecision,
  pumpPeersOf,
  startNow,
  tariffAt,
} from '@pivot/server/src/modules/autopilot';
import { hourlyRain, notWateredSince } from '@pivot/server/src/modules/autopilot/autopilot-inputs';
import { runCells } from '@pivot/server/src/modules/water-balance/water-balance';
import { addDays, localInstant } from '@pivot/server/src/time/local-day';
import {
  type AreaModel,
  EFFICIENCY,
  type MachineModel,
  Outlooks,
  PUMP_EFFICIENCY,
  PUMP_HEAD_M,
  WEDGES,
  balanceSectors,
  decisionAreas,
  inSeasonOn,
  loadedProgram,
  machineModel,
  programAtRate,
  programFromAdvice,
  seasonDayOf,
  seasonOverlapping,
} from './support/autopilot-farm';
import { type SeasonWeather, seasonWeather } from './support/autopilot-weather';
import { readOptions } from './support/cli';
import { formatNumber, printFigure, printNote, printSection, printTargeted, printTitle } from './support/report';
import { runBenchmark } from './support/run';

const TIME_ZONE = 'Africa/Johannesburg';
/** The backtest's first day: spring in the Free State, the summer crops emerging. */
const FIRST_DATE = '2026-10-01';
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
const LOOK_MS = 10 * MINUTE_MS;
const LOOKS_PER_DAY = DAY_MS / LOOK_MS;
/** The calendar: a pass at this gross rate on every sector in season, started every this many days at 22:00. */
const CALENDAR_EVERY_DAYS = 3;
const CALENDAR_DOSE_MM = 20;
const CALENDAR_START_MINUTES = 22 * 60;
/** The farmer who follows the advice by hand looks at it once a day, at 07:00. */
const HAND_LOOK_MINUTES = 7 * 60;
/** Two machines share one well, which feeds one at a time. */
const PUMP_GROUP = { id: 'Studnia 1', maxAtOnce: 1 };
const PUMP_GROUP_MACHINES = new Set(['PIVOT-02', 'PIVOT-04']);
/** Each machine's water for the season, mm over its circle. */
const ALLOWANCE_MM = 700;
/** A pass started within this of the machine's previous pass's end is counted as a restart. */
const RESTART_HOURS = 12;
const RAIN_BEFORE_HOURS = 24;
const RAIN_BEFORE_MM = 10;

const GOALS = {
  waterSavedPercent: 15,
  costSavedPercent: 10,
  beyondRawPercent: 2,
  startsBeforeForecastRain: 0,
  seasonSeconds: 300,
};

/** The farm's contract: every strategy's energy is priced by it. */
const TARIFF = TariffSchema.parse(TARIFF_PRESETS.G12);

const options = readOptions({ seed: 1, days: 180 });

type Strategy = 'calendar' | 'hand' | 'auto';
const STRATEGY_NAMES: Record<Strategy, string> = {
  calendar: `calendar (${CALENDAR_DOSE_MM} mm every ${CALENDAR_EVERY_DAYS} days, 22:00)`,
  hand: 'advice by hand (07:00)',
  auto: 'auto (the watcher every 10 min)',
};

type Counters = {
  rainSkips: number;
  reconciles: number;
  windPauses: number;
  frostPauses: number;
  queued: number;
  allowanceRefusals: number;
  /** Minutes the well fed more machines than it may. */
  wellOverMinutes: number;
  /** Passes stopped at their revolution's hours short of a turn, and the degrees left. */
  cutShort: number;
  degreesLeft: number;
};

/** One machine through one strategy's season. */
class MachineRun {
  readonly arm: PivotArm;
  turned = 0;
  stopAfterTurn = false;
  readonly dayApplied = new Float64Array(WEDGES);
  readonly depletion = new Map<AreaModel, Float64Array>();
  usedM3 = 0;
  energyKwh = 0;
  cost = 0;
  readonly starts: number[] = [];
  readonly ends: number[] = [];
  memory: AutopilotMemory = {};
  pending: ProgramData | 'advice' | null = null;
  /** Water put on a wedge that another pass had watered less than a day before, m³. */
  rewateredM3 = 0;
  private readonly passOf = new Int32Array(WEDGES).fill(-1);
  private readonly lastWaterAt = new Float64Array(WEDGES).fill(Number.NEGATIVE_INFINITY);
  cellDays = 0;
  beyondRaw = 0;
  percolationM3 = 0;
  private balance: { dayIndex: number; sectors: WaterBalanceArea[] } | null = null;
  private kept: { key: string; program: SafeProgram; areas: AreaState[]; etcMm: Map<string, number> } | null = null;

  constructor(
    readonly model: MachineModel,
    seed: number,
  ) {
    const { machine } = model;
    this.arm = new PivotArm(
      {
        centre: machine,
        armLength: machine.armLength,
        topSpeed: machine.topSpeed,
        flow: model.flow,
        pressure: 2.5,
        timeScale: 1,
        alarmChancePerHour: 0,
        pressureSafetyDelayMs: 30_000,
      },
      createRandom(seed),
      { angle: machine.angle, status: 'stop', program: null },
    );
  }

  get inPumpGroup(): boolean {
    return PUMP_GROUP_MACHINES.has(this.model.machine.id);
  }

  depletionOf(area: AreaModel): Float64Array {
    let depletion = this.depletion.get(area);
    if (!depletion) {
      depletion = new Float64Array(area.cells.length);
      this.depletion.set(area, depletion);
    }
    return depletion;
  }

  /** The balance's sectors for the day `dayIndex` (the balance of the day before). */
  balanceOn(dayIndex: number, outlooks: Outlooks, weather: SeasonWeather): WaterBalanceArea[] {
    if (this.balance?.dayIndex !== dayIndex) {
      const date = weather.days[dayIndex]!.date;
      this.balance = {
        dayIndex,
        sectors: balanceSectors(this.model, (area) => this.depletionOf(area), outlooks, dayIndex, addDays(date, -1)),
      };
    }
    return this.balance.sectors;
  }

  /**
   * The program from the advice and the decision's areas at `now`: worked out afresh each hour
   * while the arm stands still (and at a start, `exact`); while it moves, the last one stands, as
   * the decision only says it waters.
   */
  adviceAt(
    now: number,
    dayIndex: number,
    minutes: number,
    context: { outlooks: Outlooks; weather: SeasonWeather },
    exact = false,
  ): { program: SafeProgram; areas: AreaState[]; etcMm: Map<string, number> } {
    const key = exact ? `exact:${now}` : `${dayIndex}:${Math.floor(minutes / 60)}:${this.arm.angle}`;
    if (this.kept !== null && (this.kept.key === key || (this.arm.isMoving && !exact))) return this.kept;
    const date = context.weather.days[dayIndex]!.date;
    const balanceDate = addDays(date, -1);
    const advice = this.balanceOn(dayIndex, context.outlooks, context.weather);
    const program = programFromAdvice(
      this.model,
      loadedProgram(this.model.machine, date),
      this.arm.angle,
      advice,
      minutes / 60,
      balanceDate,
    );
    this.kept = {
      key,
      program,
      areas: decisionAreas(this.model, advice, program, balanceDate, TIME_ZONE),
      etcMm: new Map(advice.map((sector) => [sector.name, sector.etc])),
    };
    return this.kept;
  }

  /** A sweep's water on the wedges it covers, the water a wedge got again within a day of another pass counted. */
  water(sweep: { startAngle: number; sweptDegrees: number; depthMm: number }, now: number): void {
    const low = sweep.sweptDegrees >= 0 ? sweep.startAngle : sweep.startAngle + sweep.sweptDegrees;
    const high = low + Math.abs(sweep.sweptDegrees);
    const pass = this.starts.length;
    for (let wedge = Math.floor(low); wedge < high; wedge += 1) {
      const overlap = Math.min(high, wedge + 1) - Math.max(low, wedge);
      if (overlap <= 0) continue;
      const index = ((wedge % WEDGES) + WEDGES) % WEDGES;
      const mm = sweep.depthMm * overlap;
      this.dayApplied[index]! += mm;
      if (this.passOf[index] !== pass && this.passOf[index]! >= 0 && now - this.lastWaterAt[index]! < DAY_MS) {
        this.rewateredM3 += mm * this.model.wedgeHectares * 10;
      }
      this.passOf[index] = pass;
      this.lastWaterAt[index] = now;
    }
  }

  start(programData: ProgramData, now: number, stopAfterTurn: boolean): void {
    this.arm.program = { name: this.model.machine.program.name, uploadedAt: now, programData };
    this.arm.move('front');
    this.turned = 0;
    this.stopAfterTurn = stopAfterTurn;
    this.starts.push(now);
  }

  stop(now: number): void {
    this.arm.move('stop');
    this.ends.push(now);
  }
}

type SeasonResult = {
  strategy: Strategy;
  runs: MachineRun[];
  counters: Counters;
  seconds: number;
};

class Season {
  private readonly runs: MachineRun[];
  private readonly counters: Counters = {
    rainSkips: 0,
    reconciles: 0,
    windPauses: 0,
    frostPauses: 0,
    queued: 0,
    allowanceRefusals: 0,
    wellOverMinutes: 0,
    cutShort: 0,
    degreesLeft: 0,
  };
  private readonly forecastHours = new Map<number, HourlyRain[]>();
  private readonly dayStarts = new Map<number, number>();

  constructor(
    private readonly strategy: Strategy,
    models: readonly MachineModel[],
    private readonly weather: SeasonWeather,
    private readonly outlooks: Outlooks,
    private readonly rules: Map<string, AutopilotRules>,
    private readonly firstIndex: number,
    seed: number,
  ) {
    this.runs = models.map((model, index) => new MachineRun(model, seed * 31 + index));
  }

  run(days: number): SeasonResult {
    const started = performance.now();
    const firstInstant = localInstant(TIME_ZONE, FIRST_DATE, 0);
    for (let step = 0; step < days * LOOKS_PER_DAY; step += 1) {
      const now = firstInstant + step * LOOK_MS;
      const dayIndex = this.firstIndex + Math.floor(step / LOOKS_PER_DAY);
      const minutes = (step % LOOKS_PER_DAY) * (LOOK_MS / MINUTE_MS);
      if (minutes === 0 && step > 0) this.closeDay(dayIndex - 1);
      if (this.strategy === 'calendar') this.calendarLook(now, dayIndex, minutes);
      else if (this.strategy === 'hand') this.handLook(now, dayIndex, minutes);
      else this.autoLook(now, dayIndex, minutes);
      this.advance(now);
    }
    this.closeDay(this.firstIndex + days - 1);
    return {
      strategy: this.strategy,
      runs: this.runs,
      counters: this.counters,
      seconds: (performance.now() - started) / 1000,
    };
  }

  /** The day's water on the balance: each area in season, its wedges, FAO-56 with the server's runCells. */
  private closeDay(dayIndex: number): void {
    for (const run of this.runs) {
      for (const area of run.model.areas) {
        if (!inSeasonOn(area, dayIndex)) continue;
        const depletion = run.depletionOf(area);
        const seasonDay = seasonDayOf(area, dayIndex);
        const applied = Float64Array.from(area.cells, (cell) => run.dayApplied[cell]!);
        const day = runCells(
          area.truth,
          { count: area.cells.length, applied },
          { efficiency: EFFICIENCY, firstDay: seasonDay, lastDay: seasonDay, startDepletion: depletion },
        );
        depletion.set(day.finalDepletion);
        for (let cell = 0; cell < area.cells.length; cell += 1) {
          run.cellDays += 1;
          if (day.stress[cell]! < 1) run.beyondRaw += 1;
          run.percolationM3 += day.deepPercolation[cell]! * run.model.wedgeHectares * 10;
        }
      }
      run.dayApplied.fill(0);
    }
  }

  private wellFree(run: MachineRun): boolean {
    return !run.inPumpGroup || !this.runs.some((other) => other !== run && other.inPumpGroup && other.arm.isMoving);
  }

  private calendarLook(now: number, dayIndex: number, minutes: number): void {
    const date = this.weather.days[dayIndex]!.date;
    const calendarDay = (dayIndex - this.firstIndex) % CALENDAR_EVERY_DAYS === 0;
    for (const run of this.runs) {
      if (calendarDay && minutes === CALENDAR_START_MINUTES) {
        const program = programAtRate(loadedProgram(run.model.machine, date), CALENDAR_DOSE_MM);
        if (program.features.some((sector) => sector.properties.rate > 0)) run.pending = program;
      }
      if (run.pending !== null && run.pending !== 'advice' && !run.arm.isMoving && this.wellFree(run)) {
        run.start(run.pending, now, true);
        run.pending = null;
      }
    }
  }

  private handLook(now: number, dayIndex: number, minutes: number): void {
    const date = this.weather.days[dayIndex]!.date;
    const context = { outlooks: this.outlooks, weather: this.weather };
    for (const run of this.runs) {
      if (minutes === HAND_LOOK_MINUTES && !run.arm.isMoving) {
        const due = run
          .balanceOn(dayIndex, this.outlooks, this.weather)
          .some((sector) => sector.nextIrrigation !== null && isoOf(sector.nextIrrigation) <= date);
        if (due) run.pending = 'advice';
      }
      if (run.pending === 'advice' && !run.arm.isMoving && this.wellFree(run)) {
        const { program } = run.adviceAt(now, dayIndex, minutes, context, true);
        if (program.programData !== null) run.start(program.programData, now, true);
        run.pending = null;
      }
    }
  }

  /** The instant a day of the weather begins, local time. */
  private dayStart(dayIndex: number): number {
    let start = this.dayStarts.get(dayIndex);
    if (start === undefined) {
      start = localInstant(TIME_ZONE, this.weather.days[dayIndex]!.date, 0);
      this.dayStarts.set(dayIndex, start);
    }
    return start;
  }

  private forecastRainOn(dayIndex: number): HourlyRain[] {
    let hours = this.forecastHours.get(dayIndex);
    if (!hours) {
      hours = hourlyRain(this.weather.forecastOn(this.weather.days[dayIndex]!.date), TIME_ZONE);
      this.forecastHours.set(dayIndex, hours);
    }
    return hours;
  }

  /** The watcher's look: gather, decide (the pump group's machines alone first), act. */
  private autoLook(now: number, dayIndex: number, minutes: number): void {
    const context = { outlooks: this.outlooks, weather: this.weather };
    const station = { at: now, ...this.weather.hourAt(now) };
    const forecastRain = this.forecastRainOn(dayIndex);
    // The balance the watcher reads holds the days before today.
    const balanceDate = dottedOfIsoDate(addDays(localDateOf(now), -1));
    const gathered = this.runs.map((run) => {
      const advised = run.adviceAt(now, dayIndex, minutes, context);
      const areas = notWateredSince(advised.areas, run.memory, balanceDate, TIME_ZONE, advised.etcMm);
      const skip = run.memory.lastSkip;
      const input: DecisionInput = {
        now,
        timeZone: TIME_ZONE,
        mode: 'auto',
        machine: {
          id: this.runs.indexOf(run) + 1,
          name: run.model.machine.name,
          online: true,
          alarm: false,
          openIncident: null,
          watering: run.arm.isMoving ? (run.memory.run ? 'autopilot' : 'farmer') : null,
          pausedBy: run.memory.pausedBy ?? null,
          hectares: run.model.hectares,
        },
        areas,
        forecastRain,
        station,
        rules: this.rules.get(run.model.machine.id)!,
        season: { usedM3: run.usedM3, usedMm: run.usedM3 / (run.model.hectares * 10) },
        lastSkip:
          skip === undefined
            ? null
            : {
                ...skip,
                // The station's days from the skip's through today, as the watcher reads them.
                fallenMm: this.weather.rainBetween(this.dayStart(this.weather.indexOf(localDateOf(skip.at))), now),
              },
        pump: { watering: [], due: [] },
        programReady: advised.program.programData !== null,
      };
      return { run, input };
    });
    // The pump group's peers as the watcher finds them: watering now, or starting now alone.
    const peersOf = pumpPeersOf(
      gathered.map(({ run, input }) => ({
        id: input.machine.id,
        name: input.machine.name,
        input: { ...input, rules: run.inPumpGroup ? input.rules : { ...input.rules, pumpGroup: null } },
      })),
    );
    for (const { run, input } of gathered) {
      const decision = decideNext({ ...input, pump: peersOf(input.machine.id) });
      this.follow(run, decision, now, dayIndex, minutes);
    }
  }

  /** What the watcher does with a decision in auto: its own steps (`followDecision`), the commands on the simulated arm. */
  private follow(run: MachineRun, decision: Decision, now: number, dayIndex: number, minutes: number): void {
    const before = run.memory;
    const running = run.arm.isMoving;
    const starting = startNow(decision) !== null && !running;
    const { program } = starting
      ? run.adviceAt(now, dayIndex, minutes, { outlooks: this.outlooks, weather: this.weather }, true)
      : { program: null };
    const step = followDecision(decision, before, {
      now,
      running,
      auto: true,
      revolutionHours: program?.programData ? Math.round(program.revolutionHours * 10) / 10 : null,
    });
    run.memory = step.memory;
    const { counters } = this;
    if (decision.kind === 'skip_rain' && before.lastSkip === undefined) counters.rainSkips += 1;
    if (decision.kind === 'pause_wind' && before.pausedBy === undefined) counters.windPauses += 1;
    if (decision.kind === 'pause_frost' && before.pausedBy === undefined) counters.frostPauses += 1;
    if (decision.kind === 'queue_pump') counters.queued += 1;
    if (decision.kind === 'refuse' && decision.reason === 'allowance') counters.allowanceRefusals += 1;
    if (step.act === 'stop' && decision.kind === 'watering') {
      if (run.turned < 359) {
        counters.cutShort += 1;
        counters.degreesLeft += 360 - run.turned;
      }
      run.stop(now);
    } else if (step.act === 'stop' || step.act === 'front') {
      run.arm.move(step.act);
    } else if (step.act === 'start' && program?.programData) {
      if (decision.kind === 'reconcile') counters.reconciles += 1;
      run.start(program.programData, now, false);
    }
  }

  /** Ten minutes of the arms: their water on the wedges, the pump's energy and its price then. */
  private advance(now: number): void {
    const price = tariffAt(TARIFF, TIME_ZONE, now).pricePerKwh;
    let onWell = 0;
    for (const run of this.runs) {
      if (!run.arm.isMoving) continue;
      const before = run.arm.angle;
      let volume = 0;
      for (const sweep of run.arm.advance(LOOK_MS)) {
        run.water(sweep, now);
        volume +=
          (sweep.depthMm / 1000) *
          ((run.model.machine.armLength ** 2 / 2) * ((Math.abs(sweep.sweptDegrees) * Math.PI) / 180));
      }
      run.turned += (((run.arm.angle - before) % 360) + 360) % 360;
      run.usedM3 += volume;
      const kwh = (volume / run.model.flow) * run.model.pumpKw;
      run.energyKwh += kwh;
      run.cost += kwh * price;
      if (run.inPumpGroup && volume > 0) onWell += 1;
      if (run.stopAfterTurn && run.turned >= 360) run.stop(now + LOOK_MS);
    }
    if (onWell > PUMP_GROUP.maxAtOnce) this.counters.wellOverMinutes += LOOK_MS / MINUTE_MS;
  }
}

function isoOf(dotted: string): string {
  const [day, month, year] = dotted.split('.');
  return `${year}-${month}-${day}`;
}

/** The farm's rules for a machine: the issue's, the pump group for the two that share the well. */
function farmRules(machineId: string): AutopilotRules {
  return AutopilotRulesSchema.parse({
    tariff: TARIFF_PRESETS.G12,
    rainSkip: { mm: 10, withinHours: 24 },
    wind: { maxMs: 10 },
    frost: { minC: 2 },
    allowance: { unit: 'mm', amount: ALLOWANCE_MM },
    pumpGroup: PUMP_GROUP_MACHINES.has(machineId) ? PUMP_GROUP : null,
  });
}

type Figures = {
  appliedM3: number;
  appliedMm: number;
  beyondRawPercent: number;
  percolationM3: number;
  percolationMm: number;
  pumpHours: number;
  energyKwh: number;
  cost: number;
  starts: number;
  startsBeforeRain: number;
  startsBeforeForecastRain: number;
  restarts: number;
  rewateredM3: number;
  seconds: number;
};

function figuresOf(result: SeasonResult, weather: SeasonWeather): Figures {
  const { runs } = result;
  const hectares = runs.reduce((sum, run) => sum + run.model.hectares, 0);
  const sum = (value: (run: MachineRun) => number) => runs.reduce((total, run) => total + value(run), 0);
  const appliedM3 = sum((run) => run.usedM3);
  const percolationM3 = sum((run) => run.percolationM3);
  const starts = runs.flatMap((run) => run.starts);
  const forecastWithin = (at: number) => {
    const dayIndex = weather.indexOf(localDateOf(at));
    const hours = hourlyRain(weather.forecastOn(weather.days[dayIndex]!.date), TIME_ZONE);
    return hours
      .filter((hour) => hour.at + HOUR_MS > at && hour.at < at + RAIN_BEFORE_HOURS * HOUR_MS)
      .reduce((total, hour) => total + hour.mm, 0);
  };
  const beforeRain = starts.filter((at) => weather.rainBetween(at, at + RAIN_BEFORE_HOURS * HOUR_MS) >= RAIN_BEFORE_MM);
  return {
    appliedM3,
    appliedMm: appliedM3 / (hectares * 10),
    beyondRawPercent:
      (100 * sum((run) => run.beyondRaw)) /
      Math.max(
        1,
        sum((run) => run.cellDays),
      ),
    percolationM3,
    percolationMm: percolationM3 / (hectares * 10),
    pumpHours: sum((run) => run.usedM3 / run.model.flow),
    energyKwh: sum((run) => run.energyKwh),
    cost: sum((run) => run.cost),
    starts: starts.length,
    startsBeforeRain: beforeRain.length,
    startsBeforeForecastRain: beforeRain.filter((at) => forecastWithin(at) >= RAIN_BEFORE_MM).length,
    restarts: sum(
      (run) =>
        run.starts.filter((at) => run.ends.some((end) => end <= at && at - end < RESTART_HOURS * HOUR_MS)).length,
    ),
    rewateredM3: sum((run) => run.rewateredM3),
    seconds: result.seconds,
  };
}

const dateFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});
function localDateOf(at: number): string {
  return dateFormat.format(at);
}

function printStrategy(result: SeasonResult, figures: Figures): void {
  printSection(STRATEGY_NAMES[result.strategy]);
  printFigure('water applied', `${formatNumber(figures.appliedM3)} m³, ${formatNumber(figures.appliedMm, 1)} mm`);
  printFigure('cell-days beyond RAW', `${formatNumber(figures.beyondRawPercent, 2)} %`);
  printFigure(
    'deep percolation',
    `${formatNumber(figures.percolationMm, 1)} mm, ${formatNumber(figures.percolationM3)} m³`,
  );
  printFigure(
    'energy, its cost by G12',
    `${formatNumber(figures.energyKwh)} kWh (${formatNumber(figures.pumpHours)} h pumping), ${formatNumber(figures.cost)} PLN`,
  );
  printFigure(
    'starts; ≤ 24 h before ≥ 10 mm',
    `${figures.starts}; ${figures.startsBeforeRain} (forecast at the start: ${figures.startsBeforeForecastRain})`,
  );
  printFigure(
    `starts ≤ ${RESTART_HOURS} h after a pass; again`,
    `${figures.restarts}; ${formatNumber(figures.rewateredM3)} m³ on wedges watered < 24 h before`,
  );
  printFigure(
    'per machine: mm, beyond RAW',
    result.runs
      .map(
        (run) =>
          `${run.model.machine.id.slice(-2)} ${formatNumber(run.usedM3 / (run.model.hectares * 10))} mm ${formatNumber((100 * run.beyondRaw) / Math.max(1, run.cellDays), 1)} %`,
      )
      .join(', '),
  );
  if (result.strategy === 'auto') {
    const counters = result.counters;
    printFigure(
      'rules at work',
      `${counters.rainSkips} rain skips, ${counters.reconciles} reconciles, ${counters.windPauses} wind and ${counters.frostPauses} frost pauses`,
    );
    printFigure(
      '',
      `${counters.queued} looks queued at the well, ${counters.allowanceRefusals} refused for the allowance, ${formatNumber(counters.wellOverMinutes)} min of the well over its one machine`,
    );
    printFigure(
      'passes stopped short of a turn',
      `${counters.cutShort} (${formatNumber(counters.degreesLeft)}° left in all)`,
    );
  }
  printFigure('season computed in', `${formatNumber(figures.seconds, 1)} s`);
}

/**
 * The in-season area-days whose ETc (on the true weather) is more than the machine can give a
 * day running without a stop (its flow over its circle, times the efficiency): no strategy keeps
 * those from drying.
 */
function beyondCapacity(models: readonly MachineModel[], firstIndex: number, days: number) {
  let areaDays = 0;
  let over = 0;
  for (const model of models) {
    const capacity = ((model.flow * 24) / (model.hectares * 10)) * EFFICIENCY;
    for (const area of model.areas) {
      for (let dayIndex = firstIndex; dayIndex < firstIndex + days; dayIndex += 1) {
        if (!inSeasonOn(area, dayIndex)) continue;
        areaDays += 1;
        if (area.truth.cropEvapotranspiration[seasonDayOf(area, dayIndex) - 1]! > capacity) over += 1;
      }
    }
  }
  return { areaDays, over, capacity: ((models[0]!.flow * 24) / (models[0]!.hectares * 10)) * EFFICIENCY };
}

runBenchmark('autopilot', 30 * 60_000, async () => {
  const days = Math.round(options.days);
  const lastDate = addDays(FIRST_DATE, days - 1);
  // The weather from the first emergence of a season that overlaps the backtest, and the forecast's days past its end.
  const emergences = DEMO_MACHINES.flatMap((machine) =>
    machine.cropAreas.flatMap((area) => seasonOverlapping(area, FIRST_DATE, lastDate) ?? []),
  ).sort();
  const weatherFrom = emergences[0] ?? FIRST_DATE;
  const weatherDays =
    Math.round((Date.parse(`${lastDate}T00:00:00Z`) - Date.parse(`${weatherFrom}T00:00:00Z`)) / DAY_MS) + 1 + 8;
  const weather = seasonWeather(weatherFrom, weatherDays, options.seed, TIME_ZONE);
  const firstIndex = weather.indexOf(FIRST_DATE);
  const models = DEMO_MACHINES.map((machine) => machineModel(machine, weather, FIRST_DATE, lastDate));
  const outlooks = new Outlooks(weather);
  const rules = new Map(models.map((model) => [model.machine.id, farmRules(model.machine.id)]));

  const season = weather.days.slice(firstIndex, firstIndex + days);
  const rainDays = season.filter((day) => day.rain > 0);
  const windyDays = season.filter((day) => day.hourlyWind.some((wind) => wind > 10));
  const falseRain = season.filter((day) => day.rain === 0 && day.forecastRain > 0).length;
  const capacity = beyondCapacity(models, firstIndex, days);
  const missedRain = season.filter((day) => day.rain > 0 && day.forecastRain === 0).length;

  printTitle('Autopilot: a backtest of whole seasons of the demo farm, three strategies on the same weather', {
    season: `${days} days from ${FIRST_DATE}, ${TIME_ZONE}, seed ${options.seed}; the balance per 1° wedge`,
    weather: `${formatNumber(season.reduce((sum, day) => sum + day.rain, 0))} mm of rain on ${rainDays.length} days (${rainDays.filter((day) => day.rain >= 10).length} of ≥ 10 mm), ${windyDays.length} days with hours above 10 m/s, ET0 ${formatNumber(season.reduce((sum, day) => sum + day.referenceEvapotranspiration, 0))} mm`,
    forecast: `read daily, 7 days; ${falseRain} days of rain forecast that did not fall, ${missedRain} rain days not forecast`,
    machines: models
      .map(
        (model) =>
          `${model.machine.id} ${formatNumber(model.hectares, 1)} ha ${formatNumber(model.flow)} m³/h ${formatNumber(model.pumpKw)} kW`,
      )
      .join('; '),
    pump: `${formatNumber(PUMP_HEAD_M)} m of head at η ${PUMP_EFFICIENCY}; ${[...PUMP_GROUP_MACHINES].join(' and ')} share one well, one at a time`,
    capacity: `${formatNumber(capacity.capacity, 1)} mm/day net at most (0.9 l/s·ha): ETc beyond it on ${capacity.over} of ${capacity.areaDays} area-days in season`,
    rules: `G12, rain skip 10 mm within 24 h, wind 10 m/s, frost 2 °C, allowance ${ALLOWANCE_MM} mm, pump group of two`,
  });

  const results = (['calendar', 'hand', 'auto'] as const).map((strategy) =>
    new Season(strategy, models, weather, outlooks, rules, firstIndex, options.seed).run(days),
  );
  const figures = new Map(results.map((result) => [result.strategy, figuresOf(result, weather)]));
  for (const result of results) printStrategy(result, figures.get(result.strategy)!);

  const calendar = figures.get('calendar')!;
  const auto = figures.get('auto')!;
  printSection('auto against the goals');
  printTargeted(
    'water saved, against the calendar',
    100 * (1 - auto.appliedM3 / calendar.appliedM3),
    '%',
    { atLeast: GOALS.waterSavedPercent },
    1,
  );
  printTargeted(
    'energy cost saved, against it',
    100 * (1 - auto.cost / calendar.cost),
    '%',
    { atLeast: GOALS.costSavedPercent },
    1,
  );
  printTargeted('cell-days beyond RAW', auto.beyondRawPercent, '%', { atMost: GOALS.beyondRawPercent }, 2);
  printTargeted('starts ≤ 24 h before forecast rain', auto.startsBeforeForecastRain, '', {
    atMost: GOALS.startsBeforeForecastRain,
  });
  printTargeted(`the ${days}-day season, computed in`, auto.seconds, 's', { below: GOALS.seasonSeconds }, 1);
  printNote('A miss is a miss: docs/benchmarks.md says where the water or the money went.');
});
