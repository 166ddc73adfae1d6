import type { ApplicationDepth, ApplicationDepthBody } from '@pivot/contracts';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { ClientInfo, SignedInUser } from '../../http/request-context';
import type { LogsService } from '../logs';
import { type SprinklerRow, type SprinklersService, loggedMachine } from '../sprinklers';
import type { StoredReports } from '../telemetry-packing';
import { learnDepthAtFullSpeed } from './application-depth';
import { applicationDepths } from './application-depth.table';

/** The reports a machine's depth at 100 % is learned from: the last days'. */
const LEARNING_DAYS = 3;
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

/** A machine's depth at 100 % (docs/advice.md, "The percent timer"): an administrator's setting, or learned from its reports. */
export class ApplicationDepthService {
  private readonly learned = new Map<string, { at: number; depth: number | null; pairs: number }>();

  constructor(private readonly deps: ApplicationDepthServiceDeps) {}

  /** For the water balance, which has checked the user's access. */
  async of(sprinkler: Pick<SprinklerRow, 'id' | 'internalId'>): Promise<ApplicationDepth> {
    const { db } = this.deps;
    const [row] = await db.select().from(applicationDepths).where(eq(applicationDepths.sprinklerId, sprinkler.id));
    const learned = await this.learn(sprinkler.internalId);
    const setting = row?.depthAtFullSpeed ?? null;
    return { setting, learned: learned.depth, learnedFrom: learned.pairs, depthAtFullSpeed: setting ?? learned.depth };
  }

  async get(actor: SignedInUser, sprinklerId: number): Promise<ApplicationDepth> {
    return this.of(await this.deps.sprinklers.accessible(actor, sprinklerId));
  }

  /**
   * An administrator's setting (the route lets only administrators in); null goes back to
   * learning. Written to the activity log with the change: the depth in mm, or empty for learning.
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
      if (body.depthAtFullSpeed === null) {
        await tx.delete(applicationDepths).where(eq(applicationDepths.sprinklerId, sprinkler.id));
      } else {
        await tx
          .insert(applicationDepths)
          .values({ sprinklerId: sprinkler.id, depthAtFullSpeed: body.depthAtFullSpeed })
          .onConflictDoUpdate({
            target: applicationDepths.sprinklerId,
            set: { depthAtFullSpeed: body.depthAtFullSpeed, updatedAt: new Date() },
          });
      }
      await logs.record(tx, {
        eventType: 'sprinkler_application_depth_updated',
        actorUserId: actor.id,
        sprinkler: loggedMachine(sprinkler),
        event: body.depthAtFullSpeed === null ? '' : String(body.depthAtFullSpeed),
        ip: client.ip,
      });
    });
    return this.of(sprinkler);
  }

  private async learn(machineId: string): Promise<{ depth: number | null; pairs: number }> {
    const now = (this.deps.now ?? Date.now)();
    const kept = this.learned.get(machineId);
    if (kept && now - kept.at < (kept.depth === null ? UNLEARNED_FOR_MS : LEARNED_FOR_MS)) return kept;
    const reports = await this.deps.reports.during(machineId, new Date(now - LEARNING_DAYS * DAY_MS), new Date(now));
    const learned = { at: now, ...learnDepthAtFullSpeed(reports) };
    this.learned.set(machineId, learned);
    return learned;
  }
}
