import type { ApplicationDepth, ApplicationDepthBody } from '@pivot/contracts';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { ClientInfo, SignedInUser } from '../../http/request-context';
import type { LogsService } from '../logs';
import { type SprinklerRow, type SprinklersService, loggedMachine } from '../sprinklers';
import type { StoredReports } from '../telemetry';
import { type LearnedPace, NO_PACE_SUMS, paceFromSums, paceSums } from './application-depth';
import { applicationDepths } from './application-depth.table';

/** The reports a machine's depth at 100 % is learned from: those of its last days of watering. */
const LEARNING_DAYS = 3;
/**
 * How far back the learning looks for them: a pivot may stand for weeks of rain between two
 * passes, or all winter, and its depth at 100 % is a property of the machine, not of the season.
 */
const LEARNING_LOOKBACK_DAYS = 366;
/** A learned depth is kept this long per machine before it is learned again. */
const LEARNED_FOR_MS = 60 * 60_000;
/**
 * Too few reports yet is looked at again sooner: a machine that just started watering gives its
 * depth within minutes, and the timers should not wait an hour for it.
 */
const UNLEARNED_FOR_MS = 5 * 60_000;
const DAY_MS = 86_400_000;

export type ApplicationDepthServiceDeps = {
  db: Database;
  sprinklers: SprinklersService;
  logs: LogsService;
  reports: Pick<StoredReports, 'during'>;
  now?: () => number;
};

/**
 * A machine's pace at 100 % (docs/advice.md, "The percent timer"): its depth and the hours a
 * circle takes, each an administrator's setting or learned from its reports.
 */
export class ApplicationDepthService {
  private readonly learned = new Map<string, LearnedPace & { at: number }>();

  constructor(private readonly deps: ApplicationDepthServiceDeps) {}

  /** For the water balance and the advice, which have checked the user's access. */
  async of(sprinkler: Pick<SprinklerRow, 'id' | 'internalId'>): Promise<ApplicationDepth> {
    const { db } = this.deps;
    const [row] = await db.select().from(applicationDepths).where(eq(applicationDepths.sprinklerId, sprinkler.id));
    const learned = await this.learn(sprinkler.internalId);
    const setting = row?.depthAtFullSpeed ?? null;
    const hoursSetting = row?.hoursPerCircle ?? null;
    return {
      setting,
      learned: learned.depth,
      learnedFrom: learned.pairs,
      depthAtFullSpeed: setting ?? learned.depth,
      hoursPerCircleSetting: hoursSetting,
      hoursPerCircleLearned: learned.hoursPerCircle,
      hoursPerCircle: hoursSetting ?? learned.hoursPerCircle,
    };
  }

  /** What a program from the advice times the arm by: the depth at 100 % and the hours a circle takes at 100 %. */
  async pace(
    sprinkler: Pick<SprinklerRow, 'id' | 'internalId'>,
  ): Promise<{ depthAtFullSpeed: number | null; hoursPerCircle: number | null }> {
    const { depthAtFullSpeed, hoursPerCircle } = await this.of(sprinkler);
    return { depthAtFullSpeed, hoursPerCircle };
  }

  async get(actor: SignedInUser, sprinklerId: number): Promise<ApplicationDepth> {
    return this.of(await this.deps.sprinklers.accessible(actor, sprinklerId));
  }

  /**
   * An administrator's setting (the route lets only administrators in); null goes back to
   * learning, hours left out stay. Each change written to the activity log: the value, or empty
   * for learning.
   */
  async set(
    actor: SignedInUser,
    sprinklerId: number,
    body: ApplicationDepthBody,
    client: ClientInfo,
  ): Promise<ApplicationDepth> {
    const { db, logs } = this.deps;
    const sprinkler = await this.deps.sprinklers.accessible(actor, sprinklerId);
    await db.transaction(async (tx) => {
      const [kept] = await tx
        .select()
        .from(applicationDepths)
        .where(eq(applicationDepths.sprinklerId, sprinkler.id))
        .for('update');
      const before = { depthAtFullSpeed: kept?.depthAtFullSpeed ?? null, hoursPerCircle: kept?.hoursPerCircle ?? null };
      const after = {
        depthAtFullSpeed: body.depthAtFullSpeed,
        hoursPerCircle: body.hoursPerCircle === undefined ? before.hoursPerCircle : body.hoursPerCircle,
      };
      if (after.depthAtFullSpeed === null && after.hoursPerCircle === null) {
        await tx.delete(applicationDepths).where(eq(applicationDepths.sprinklerId, sprinkler.id));
      } else {
        await tx
          .insert(applicationDepths)
          .values({ sprinklerId: sprinkler.id, ...after })
          .onConflictDoUpdate({ target: applicationDepths.sprinklerId, set: { ...after, updatedAt: new Date() } });
      }
      const changes = [
        {
          eventType: 'sprinkler_application_depth_updated',
          value: after.depthAtFullSpeed,
          was: before.depthAtFullSpeed,
        },
        { eventType: 'sprinkler_hours_per_circle_updated', value: after.hoursPerCircle, was: before.hoursPerCircle },
      ] as const;
      for (const { eventType, value, was } of changes) {
        if (value === was) continue;
        await logs.record(tx, {
          eventType,
          actorUserId: actor.id,
          sprinkler: loggedMachine(sprinkler),
          event: value === null ? '' : String(value),
          ip: client.ip,
        });
      }
    });
    return this.of(sprinkler);
  }

  private async learn(machineId: string): Promise<LearnedPace> {
    const now = (this.deps.now ?? Date.now)();
    const kept = this.learned.get(machineId);
    if (kept && now - kept.at < (kept.depth === null ? UNLEARNED_FOR_MS : LEARNED_FOR_MS)) return kept;
    const learned = { at: now, ...(await this.learnFromLastWatering(machineId, now)) };
    this.learned.set(machineId, learned);
    return learned;
  }

  /**
   * From the last LEARNING_DAYS, and while they teach nothing, LEARNING_DAYS more at a time, up to
   * LEARNING_LOOKBACK_DAYS back: a machine that last watered a month ago still has its pace.
   */
  private async learnFromLastWatering(machineId: string, now: number): Promise<LearnedPace> {
    // Sums, not reports: a machine that has not watered for months is read a few days at a time.
    let sums = NO_PACE_SUMS;
    let learned = paceFromSums(sums);
    for (let back = 0; back < LEARNING_LOOKBACK_DAYS && learned.depth === null; back += LEARNING_DAYS) {
      const before = now - back * DAY_MS;
      sums = paceSums(
        await this.deps.reports.during(machineId, new Date(before - LEARNING_DAYS * DAY_MS), new Date(before)),
        sums,
      );
      learned = paceFromSums(sums);
    }
    return learned;
  }
}
