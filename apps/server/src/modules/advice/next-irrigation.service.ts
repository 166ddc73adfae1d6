import {
  type NextIrrigationList,
  type WaterBalance,
  type WaterBalanceQuery,
  dottedOfIsoDate,
  isoOfDottedDate,
} from '@pivot/contracts';
import type { Database } from '../../db/client';
import type { SignedInUser } from '../../http/request-context';
import { addDays, localDate, startOfLocalDay } from '../../time/local-day';
import type { AccessService } from '../access';
import { seasonedMachines } from '../crop-seasons';
import { refuseDayAfterToday } from '../water-balance';

export type NextIrrigationServiceDeps = {
  db: Database;
  access: Pick<AccessService, 'machinesOfUsers'>;
  waterBalance: { balance(actor: SignedInUser, sprinklerId: number, query: { date?: string }): Promise<WaterBalance> };
  timeZone: string;
  clock?: () => number;
};

/**
 * A machine's answer is kept this long at most: within a day only the water accounting's late
 * minutes of the day before can still change it (docs/advice.md, "Next irrigation in the list").
 */
const KEPT_MS = 60 * 60_000;
/** Longer than any season (four stages of at most 366 days): older emergences are not looked at. */
const LONGEST_SEASON_DAYS = 4 * 366;

/**
 * What the machines table and the water-stress watch read of a machine's balance: its earliest
 * next irrigation and the zones whose mean depletion is beyond their RAW. undefined: the balance
 * has no zones (no season runs that day, no station near).
 */
type Reading = { nextIrrigation: string | null; stressedZones: string[] } | undefined;
type Kept = { key: string; since: number; value: Promise<Reading> };

/** The system's own look at every machine (the water-stress watch): no user asks, every machine counts. */
const SYSTEM: SignedInUser = { id: 0, email: '', admin: true, language: 'en' };

/** The earliest next irrigation of a balance's zones, dd.mm.yyyy; null when none is due. */
export function earliestNextIrrigation(balance: WaterBalance): string | null {
  let earliest: string | null = null;
  for (const zone of balance.zones) {
    if (zone.nextIrrigation === null) continue;
    if (earliest === null || isoOfDottedDate(zone.nextIrrigation) < isoOfDottedDate(earliest))
      earliest = zone.nextIrrigation;
  }
  return earliest;
}

function readingOf(balance: WaterBalance): Reading {
  if (balance.zones.length === 0) return undefined;
  return {
    nextIrrigation: earliestNextIrrigation(balance),
    stressedZones: balance.zones.filter((zone) => zone.raw > 0 && zone.depletion > zone.raw).map((zone) => zone.name),
  };
}

/**
 * "Next irrigation" of the machines table: each machine's water balance of the last complete
 * day, computed once and kept until the day, the machine's seasons, its area map or an hour go
 * by, so that the table's every reading costs one small query.
 */
export class NextIrrigationService {
  private readonly kept = new Map<number, Kept>();

  constructor(private readonly deps: NextIrrigationServiceDeps) {}

  /** Drops a machine's kept answer, so that the next reading computes it again (a farm record changed it). */
  forget(sprinklerId: number): void {
    this.kept.delete(sprinklerId);
  }

  /** Each machine's earliest next irrigation at the end of `query.date`; the last complete day by default. */
  async list(actor: SignedInUser, query: WaterBalanceQuery = {}): Promise<NextIrrigationList> {
    const { timeZone } = this.deps;
    const now = this.deps.clock?.() ?? Date.now();
    const date = query.date === undefined ? undefined : isoOfDottedDate(query.date);
    if (date !== undefined) refuseDayAfterToday(date, timeZone, now);
    const answer: NextIrrigationList = [];
    for (const [id, reading] of await this.read(actor, date)) {
      answer.push({ id, nextIrrigation: reading.nextIrrigation });
    }
    return answer;
  }

  /**
   * Every machine with a season running and zones whose mean depletion is beyond their RAW,
   * with those zones' names (the water-stress incident's, docs/advice.md); kept as `list` keeps it.
   */
  async stressedZones(): Promise<Map<number, string[]>> {
    const stressed = new Map<number, string[]>();
    for (const [id, reading] of await this.read(SYSTEM)) {
      if (reading.stressedZones.length > 0) stressed.set(id, reading.stressedZones);
    }
    return stressed;
  }

  /**
   * Each machine's reading the actor may see at the end of `asked` (the last complete day by
   * default), from its kept balance or a new one.
   */
  private async read(actor: SignedInUser, asked?: string): Promise<Map<number, NonNullable<Reading>>> {
    const { db, access, timeZone } = this.deps;
    const now = this.deps.clock?.() ?? Date.now();
    const date = asked ?? localDate(timeZone, startOfLocalDay(timeZone, new Date(now)).getTime() - 1);
    const candidates = await seasonedMachines(db, addDays(date, -LONGEST_SEASON_DAYS), date);
    const granted = actor.admin ? null : new Set((await access.machinesOfUsers(db, [actor.id])).get(actor.id) ?? []);
    const readings = new Map<number, NonNullable<Reading>>();
    for (const candidate of candidates) {
      if (granted && !granted.has(candidate.sprinklerId)) continue;
      const key = `${date}|${candidate.seasons}|${candidate.changed?.getTime() ?? 0}|${candidate.areaMap}`;
      let kept = this.kept.get(candidate.sprinklerId);
      if (!kept || kept.key !== key || now - kept.since >= KEPT_MS) {
        const query = asked === undefined ? {} : { date: dottedOfIsoDate(asked) };
        const value = this.deps.waterBalance.balance(actor, candidate.sprinklerId, query).then(readingOf);
        kept = { key, since: now, value };
        this.kept.set(candidate.sprinklerId, kept);
      }
      try {
        const reading = await kept.value;
        if (reading !== undefined) readings.set(candidate.sprinklerId, reading);
      } catch {
        // A machine removed meanwhile: nothing to show, and nothing kept.
        this.kept.delete(candidate.sprinklerId);
      }
    }
    return readings;
  }
}
