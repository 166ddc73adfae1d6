/**
 * The autopilot's plan for the coming days (docs/autopilot.md, "The plan"): the passes it would
 * start, which sectors, when, how much water and at what cost, found by asking the decision
 * itself at each moment a pass comes due. After a planned pass its sectors are taken as refilled
 * and due again once their crop has used their RAW at the day's ETc: the further a pass, the more
 * it is an estimate, and the plan says which ones are. Machines sharing a pump are planned
 * together: a pass waits while the pump feeds as many as it may, the most urgent first, as the
 * watcher queues them.
 */
import type { Decision, DecisionInput, StartDecision, TimingDecision } from './decide';
import { PLANNING_HOURS, byUrgency, decideNext } from './decide';

const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;
/** The least ETc a sector's refill is spread over, mm/day: a sector that uses nothing is not planned again. */
const LEAST_ETC_MM = 0.1;
/** At most this many passes are planned: a week of daily passes and some. */
const MOST_PASSES = 10;

export type PlannedPass = {
  /** When the pass starts, and the latest start that still waters in time. */
  at: number;
  dueAt: number;
  late: boolean;
  areas: string[];
  waterM3: number;
  waterMm: number;
  /** The tariff's zone and price at the start; null without a tariff. */
  zone: StartDecision['zone'];
  /** The pump's energy over the revolution, kWh, and its cost; null while the pump's power or the revolution is unknown. */
  energyKwh: number | null;
  cost: number | null;
  /** After an earlier planned pass: its sectors' dates are estimated. */
  estimated: boolean;
  /** The decision as the autopilot would take it when the pass comes due. */
  decision: Decision;
  /**
   * The pass waits for its pump: when it would have started with the pump free, and the peers it
   * waited for (those holding the pump, then the more urgent due at once), in the order met.
   * Null when it starts when it would alone.
   */
  queued: { wouldStartAt: number; behind: PumpPeer[] } | null;
};

/** A machine of the pump group, as a queued pass names it. */
export type PumpPeer = { id: number; name: string };

export type PlanOptions = {
  /** Hours a revolution takes (the program from the advice); null while the machine's pace is unknown. */
  revolutionHours: number | null;
  /** The pump's power, kW; null when the farmer has not said. */
  pumpKw: number | null;
  /** Each sector's ETc, mm/day, for when it is due again after a pass. */
  etcMm: ReadonlyMap<string, number>;
  days: number;
  /**
   * The autopilot's own pass going on now (or its last, ended after the balance's day): when its
   * revolution ends and the sectors it waters. Nothing is planned before it ends, and its sectors
   * are taken as refilled then.
   */
  running?: { until: number; areas: readonly string[] } | null;
};

/** When a timing decision starts its pass. */
function startOf(timing: TimingDecision, now: number): number {
  if (timing.kind === 'start') return timing.at;
  if (timing.kind === 'wait') return timing.until;
  return now;
}

/** The hours a planned pass takes: its revolution's (at least one); the next is not planned before. */
const passMs = (options: PlanOptions) => Math.max(options.revolutionHours ?? 1, 1) * HOUR_MS;

/**
 * The passes the autopilot would start from `input.now` through `days` days, in order. The
 * machine is taken as online, idle and unpaused (today's refusal or pause is the decision of
 * now, shown apart), the pump as free, and no wind or frost limit is forecast.
 */
export function planComingPasses(input: DecisionInput, options: PlanOptions): PlannedPass[] {
  const alone: PumpGroupMember = { id: input.machine.id, name: input.machine.name, input, options };
  return planPumpGroup([alone]).get(input.machine.id) ?? [];
}

/** A machine of a pump group to plan: its decision's input (its peers left out), and its plan's options. */
export type PumpGroupMember = PumpPeer & {
  input: DecisionInput;
  /** Its plan's options; null: nothing is planned for it (the advice gives nothing), though its run holds the pump. */
  options: PlanOptions | null;
  /**
   * Until when a run going on now holds the pump: the autopilot's own until its revolution ends,
   * the farmer's as estimated. Null or past: the machine is not watering.
   */
  holdsPumpUntil?: number | null;
};

/** One machine's plan as it is made: where it stands, its pass waiting to start, and its passes. */
type Track = {
  member: PumpGroupMember;
  options: PlanOptions;
  rules: DecisionInput['rules'];
  machine: DecisionInput['machine'];
  areas: DecisionInput['areas'];
  /** The moment it is looked at next. */
  cursor: number;
  end: number;
  usedM3: number;
  usedMm: number;
  estimated: boolean;
  /** Its next pass as it would start with the pump free, once looked for. */
  next: { at: number; timing: TimingDecision; decision: Decision } | null;
  /** Since when its next pass has waited for the pump, and for whom. */
  waiting: { since: number; behind: Map<number, PumpPeer> } | null;
  passes: PlannedPass[];
  done: boolean;
};

function trackOf(member: PumpGroupMember, options: PlanOptions): Track {
  const { input } = member;
  const running = options.running ?? null;
  const track: Track = {
    member,
    options,
    // The pump is the group's say (below): the machine alone is asked when it would start.
    rules: { ...input.rules, wind: null, frost: null, pumpGroup: null },
    machine: { ...input.machine, online: true, alarm: false, openIncident: null, watering: null, pausedBy: null },
    areas: input.areas,
    cursor: running === null ? input.now : Math.max(input.now, running.until),
    end: input.now + options.days * DAY_MS,
    usedM3: input.season.usedM3,
    usedMm: input.season.usedMm,
    // After a pass going on, every date is estimated from the crop's use of water.
    estimated: running !== null,
    next: null,
    waiting: null,
    passes: [],
    done: false,
  };
  if (running !== null) {
    track.areas = track.areas.map((area) =>
      running.areas.includes(area.name) ? refill(track, area, running.until) : area,
    );
  }
  return track;
}

/** An area after a pass reached it at `at`: due again once its crop has used its RAW. */
function refill(track: Track, area: DecisionInput['areas'][number], at: number): DecisionInput['areas'][number] {
  return {
    ...area,
    depletionMm: 0,
    triggerAt: at + (area.rawMm / Math.max(track.options.etcMm.get(area.name) ?? 0, LEAST_ETC_MM)) * DAY_MS,
  };
}

/** Finds the machine's next pass as it would start with the pump free (or finds there is none within its days). */
function lookAhead(track: Track): void {
  while (!track.done && track.next === null) {
    if (track.cursor >= track.end || track.passes.length >= MOST_PASSES) {
      track.done = true;
      return;
    }
    const { input } = track.member;
    const decision = decideNext({
      ...input,
      now: track.cursor,
      rules: track.rules,
      machine: track.machine,
      areas: track.areas,
      station: null,
      lastSkip: null,
      season: { usedM3: track.usedM3, usedMm: track.usedMm },
      pump: { watering: [], due: [] },
      // The plan says when it would water: the advice's program is taken as ready then.
      programReady: true,
    });
    if (decision.kind === 'not_due') {
      const nextStart = Math.min(
        ...track.areas.flatMap((area) => (area.triggerAt === null ? [] : [area.triggerAt - area.armHours * HOUR_MS])),
      );
      if (!Number.isFinite(nextStart)) track.done = true;
      // Looked at again when its latest start comes within the planning horizon.
      else track.cursor = Math.max(track.cursor + HOUR_MS, nextStart - PLANNING_HOURS * HOUR_MS);
      continue;
    }
    if (decision.kind === 'skip_rain') {
      track.cursor += (track.rules.rainSkip?.withinHours ?? PLANNING_HOURS) * HOUR_MS;
      continue;
    }
    const timing: TimingDecision | null =
      decision.kind === 'reconcile'
        ? decision.then
        : decision.kind === 'start' || decision.kind === 'wait' || decision.kind === 'queue_pump'
          ? decision
          : null;
    const at = timing === null ? Infinity : startOf(timing, track.cursor);
    if (timing === null || at >= track.end) track.done = true;
    else track.next = { at, timing, decision };
  }
}

/** The machine's next pass starts at `at`: planned, its sectors refilled, the next looked for after its revolution. */
function startPass(track: Track, at: number): void {
  const { timing, decision } = track.next!;
  const { options } = track;
  const zone = timing.kind === 'queue_pump' ? null : timing.zone;
  const energyKwh =
    options.pumpKw === null || options.revolutionHours === null ? null : options.pumpKw * options.revolutionHours;
  const waiting = track.waiting;
  track.passes.push({
    at,
    dueAt: timing.dueAt,
    late: timing.late,
    areas: timing.areas,
    waterM3: timing.water.m3,
    waterMm: timing.water.mm,
    zone,
    energyKwh,
    cost: energyKwh === null ? null : energyKwh * (zone?.pricePerKwh ?? 0),
    estimated: track.estimated,
    decision,
    queued: waiting === null ? null : { wouldStartAt: waiting.since, behind: [...waiting.behind.values()] },
  });
  track.usedM3 += timing.water.m3;
  track.usedMm += timing.water.mm;
  // The pass refills its sectors: each is due again once its crop has used its RAW.
  track.areas = track.areas.map((area) =>
    timing.areas.includes(area.name) ? refill(track, area, at + area.armHours * HOUR_MS) : area,
  );
  track.estimated = true;
  track.cursor = at + passMs(options);
  track.next = null;
  track.waiting = null;
}

/** A machine on the pump from `from` until `until`. */
type Hold = PumpPeer & { from: number; until: number };

/**
 * The passes of the machines sharing one pump (`members`, each with its own rules' `pumpGroup`),
 * planned together, by machine id. Each machine is planned as `planComingPasses` plans it alone,
 * but a pass starts only while its pump feeds fewer machines than its `maxAtOnce`: of the
 * machines due to start at one moment the pump takes the most urgent (least slack to their latest
 * start, ties by id, as the watcher's `queue_pump` orders them); the others wait until a peer's
 * pass ends (each pass holds the pump for its revolution's hours, a run going on until its
 * `holdsPumpUntil`) and are asked again then: a cheaper zone may still be worth waiting for, and a
 * pass pushed past its latest start is late.
 */
export function planPumpGroup(members: readonly PumpGroupMember[]): Map<number, PlannedPass[]> {
  const tracks = members.flatMap((member) => (member.options === null ? [] : [trackOf(member, member.options)]));
  const holds: Hold[] = members.flatMap(({ id, name, input, holdsPumpUntil }) =>
    (holdsPumpUntil ?? input.now) > input.now ? [{ id, name, from: input.now, until: holdsPumpUntil! }] : [],
  );
  for (;;) {
    tracks.forEach(lookAhead);
    const waiting = tracks.filter((track) => track.next !== null);
    if (waiting.length === 0) break;
    const now = Math.min(...waiting.map((track) => track.next!.at));
    // The machines due to start now, most urgent first, and those the pump feeds then (the machine itself aside).
    const due = waiting
      .filter((track) => track.next!.at === now)
      .map((track) => ({ track, id: track.member.id, slackHours: (track.next!.timing.dueAt - now) / HOUR_MS }))
      .sort(byUrgency);
    const holding = (id: number): PumpPeer[] => {
      const held = new Map<number, PumpPeer>();
      for (const hold of [...holds].sort((a, b) => a.from - b.from)) {
        if (hold.id !== id && hold.from <= now && now < hold.until) held.set(hold.id, { id: hold.id, name: hold.name });
      }
      return [...held.values()];
    };
    const placed = due.map(({ track }, place) => {
      const held = holding(track.member.id);
      const free = (track.member.input.rules.pumpGroup?.maxAtOnce ?? Infinity) - held.length;
      return { track, starts: place < free, ahead: [...held, ...due.slice(0, place).map((peer) => peer.track.member)] };
    });
    for (const { track, starts } of placed) {
      if (!starts) continue;
      holds.push({ id: track.member.id, name: track.member.name, from: now, until: now + passMs(track.options) });
      startPass(track, now);
    }
    // The others wait for the first pass on the pump to end, and are asked again then.
    const freed = Math.min(...holds.filter((hold) => hold.until > now).map((hold) => hold.until));
    for (const { track, starts, ahead } of placed) {
      if (starts) continue;
      track.waiting ??= { since: now, behind: new Map() };
      for (const peer of ahead) track.waiting.behind.set(peer.id, { id: peer.id, name: peer.name });
      track.cursor = Number.isFinite(freed) ? freed : now + HOUR_MS;
      track.next = null;
    }
  }
  return new Map(tracks.map((track) => [track.member.id, track.passes]));
}
