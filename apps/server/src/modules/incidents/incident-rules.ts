import { type IncidentKind, type SprinklerStatus, machineIsOnline } from '@pivot/contracts';

/**
 * The rules of docs/alerts.md, as one pure function of what the server knows of a machine now.
 * Each constant below is a rule there.
 */

/** Offline: nothing heard from the machine for this long (a short reconnection is no incident). */
export const OFFLINE_AFTER_MS = 30_000;
/** Low pressure: below the machine's threshold while it moves, for this long. */
export const LOW_PRESSURE_AFTER_MS = 20_000;
/** Low pressure ends once the pressure is this much above the threshold: a pressure at the threshold does not flap. */
export const PRESSURE_HYSTERESIS_BAR = 0.2;
/** A stop within this time of a person's motion command was commanded, not unexpected. */
export const COMMANDED_WITHIN_MS = 2 * 60_000;
/** An incident ends once the machine has looked well for this long; doubled at each relapse. */
export const RECOVERY_HOLD_MS = 60_000;
export const LONGEST_RECOVERY_HOLD_MS = 30 * 60_000;

/** What the server knows of one added machine at a look. */
export type MachineLook = {
  machineId: string;
  /** Its latest state; undefined before it has ever connected. */
  state:
    | {
        online: boolean;
        reportedAt: number | null;
        presenceAt: number | null;
        status: SprinklerStatus | null;
        pressure: number | null;
        flow: number | null;
        angle: number | null;
        alarm: string | null;
      }
    | undefined;
  lowPressureBar: number;
  /**
   * Whether the machine's program waters where its arm is now: over a forbidden zone, a sector of
   * rate 0 or outside every sector it moves dry on purpose, and no pressure is no fault.
   */
  watersHere: boolean;
  /** When a person last commanded a motion of the machine; null when not asked or never. */
  lastMotionCommandAt: number | null;
};

/** What the previous look saw (machine_watch). */
export type Watch = { status: SprinklerStatus | null; lowPressureSince: number | null };

export type OpenIncident = {
  id: number;
  kind: IncidentKind;
  beganAt: number;
  recoveringSince: number | null;
  relapses: number;
};

export type Verdict = {
  watch: Watch;
  /** Incidents to open, with what to say of them. */
  begin: { kind: IncidentKind; detail: string }[];
  /** Open incidents that end now. */
  end: { incident: OpenIncident; detail: string }[];
  /** Open incidents whose recovery started, stopped or goes on (the others are unchanged). */
  recovering: { incident: OpenIncident; since: number | null; relapses: number }[];
};

const MOVING: readonly (SprinklerStatus | null)[] = ['front', 'back'];

/**
 * Judges a machine: which incidents begin, which end, what to remember. While the server is not
 * listening to the broker (`listeningSince` null) it cannot hear silence, so it opens no offline
 * incident; silence counts only from when it started listening. While a machine is offline its
 * last values are old news: only the offline incident changes.
 */
export function judge(
  look: MachineLook,
  watch: Watch,
  open: ReadonlyMap<IncidentKind, OpenIncident>,
  now: number,
  listeningSince: number | null,
): Verdict {
  const verdict: Verdict = { watch, begin: [], end: [], recovering: [] };
  const { state } = look;
  if (!state || listeningSince === null) return verdict;
  const lastHeard = Math.max(state.reportedAt ?? state.presenceAt ?? 0, listeningSince);
  const online = machineIsOnline({ ...state, reportedAt: lastHeard }, now);

  const conditions = new Map<IncidentKind, { holds: boolean; clear: boolean; detail: string }>();
  conditions.set('offline', { holds: !online && now - lastHeard >= OFFLINE_AFTER_MS, clear: online, detail: '' });
  if (online) {
    const moving = MOVING.includes(state.status);
    const pressure = state.pressure ?? 0;
    const lowNow = moving && look.watersHere && pressure < look.lowPressureBar;
    const lowPressureSince = lowNow ? (watch.lowPressureSince ?? now) : null;
    const commanded = look.lastMotionCommandAt !== null && now - look.lastMotionCommandAt <= COMMANDED_WITHIN_MS;
    const stoppedUnasked = MOVING.includes(watch.status) && state.status === 'stop' && !commanded;
    const lowPressure = open.get('low_pressure');
    conditions.set('alarm', {
      holds: state.status === 'alarm',
      clear: state.status !== 'alarm',
      detail: state.alarm ?? '',
    });
    conditions.set('unexpected_stop', {
      holds: stoppedUnasked,
      clear: moving,
      detail: state.angle === null ? '' : `(${Math.round(state.angle)}°)`,
    });
    conditions.set('low_pressure', {
      holds: lowPressureSince !== null && now - lowPressureSince >= LOW_PRESSURE_AFTER_MS,
      // A person who stops or turns the machine after the pressure fell has taken it in hand.
      clear:
        pressure >= look.lowPressureBar + PRESSURE_HYSTERESIS_BAR ||
        (lowPressure !== undefined &&
          look.lastMotionCommandAt !== null &&
          look.lastMotionCommandAt > lowPressure.beganAt),
      detail: `${formatBar(pressure)} bar`,
    });
    verdict.watch = { status: state.status, lowPressureSince };
  }

  for (const [kind, condition] of conditions) {
    const incident = open.get(kind);
    if (!incident) {
      if (condition.holds) verdict.begin.push({ kind, detail: condition.detail });
      continue;
    }
    if (!condition.clear) {
      if (incident.recoveringSince !== null) {
        verdict.recovering.push({ incident, since: null, relapses: incident.relapses + 1 });
      }
      continue;
    }
    const since = incident.recoveringSince ?? now;
    if (now - since >= recoveryHoldMs(incident.relapses)) verdict.end.push({ incident, detail: condition.detail });
    else if (incident.recoveringSince === null)
      verdict.recovering.push({ incident, since, relapses: incident.relapses });
  }
  return verdict;
}

/** How long a machine must look well before its incident ends: a minute, doubled at each relapse, at most half an hour. */
export function recoveryHoldMs(relapses: number): number {
  return Math.min(RECOVERY_HOLD_MS * 2 ** relapses, LONGEST_RECOVERY_HOLD_MS);
}

function formatBar(pressure: number): string {
  return (Math.round(pressure * 10) / 10).toString();
}
