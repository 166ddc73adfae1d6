import type { MachineListEvent } from '@pivot/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import type { MachineEvent } from '../../gateway/mqtt-gateway';
import type { SignedInUser } from '../../http/request-context';
import { type EventFrame, eventFrame } from '../../http/event-stream';
import { RepeatingJob } from '../../time/repeating-job';
import type { AccessService } from '../access';
import type { TelemetryService } from '../telemetry';
import { presentLiveEvent } from './sprinklers.presenter';
import { type ListedSprinkler, listListedSprinklers, machinesDigest } from './sprinklers.repository';

/**
 * How often each instance reads again which machines its connected users may see: a grant
 * changed through another instance reaches this one's streams within this time (one changed
 * through this instance at once, see `machinesChanged`).
 */
export const MACHINES_RECHECK_MS = 5000;

/**
 * Writes one event of the list stream, framed once for every stream it goes to, and the name of
 * the state it carries: a client behind gets only the latest of each (one machine's telemetry,
 * presence, program; the list changed).
 */
export type SendListEvent = (frame: EventFrame, latest: string) => void;

const MACHINES_CHANGED = eventFrame('machines', JSON.stringify({ type: 'machines' } satisfies MachineListEvent));

type Follower = {
  user: SignedInUser;
  send: SendListEvent;
  /** The machines the user may see, by broker ID; none until the first read. */
  machines: Map<string, ListedSprinkler>;
  /** What the list shows of them apart from live values, to tell when it changed; null until the first read. */
  listed: string | null;
};

/** The machines as their list shows them apart from live values; if this text changes, the list must be read again. */
function listedText(machines: Iterable<ListedSprinkler>): string {
  return JSON.stringify(
    [...machines]
      .sort((a, b) => a.id - b.id)
      .map(({ id, internalId, name, lat, lng, lowPressureBar }) => [id, internalId, name, lat, lng, lowPressureBar]),
  );
}

/**
 * The machine-list event streams open on this instance, one per signed-in browser tab: each
 * gets the live events (telemetry, online/offline, program) of every machine its user may see,
 * tagged with the machine's id, and `machines` when the list itself changed (a machine granted,
 * revoked, added, renamed), so the list is read again. Every instance hears every machine's
 * events from the broker; which machines each user may see is read for all connected users at
 * once, every few seconds and after each change made through this instance.
 */
export class MachineListStreams {
  private readonly followers = new Set<Follower>();
  /**
   * Each machine some follower may see, with those followers: an event goes straight to them. At
   * a dealer's 10,000 machines and thousands of reports a second, asking every follower of every
   * report whether it sees the machine took a tenth of the server's processor time.
   */
  private audiences = new Map<string, { sprinkler: ListedSprinkler; followers: Follower[] }>();
  private readonly job = new RepeatingJob(() => this.readMachines(), {
    everyMs: MACHINES_RECHECK_MS,
    onError: (error) => this.deps.logger.warn({ err: error }, 'reading the machines of the list streams failed'),
  });
  private stopWatching: (() => void) | undefined;
  /** The machines' digest (machinesDigest) when they were last read. */
  private readAtDigest: string | undefined;

  constructor(
    private readonly deps: {
      db: Database;
      access: AccessService;
      telemetry: TelemetryService;
      logger: FastifyBaseLogger;
    },
  ) {}

  start(): void {
    this.stopWatching = this.deps.telemetry.watchAll((event) => this.forward(event));
    this.job.start();
  }

  async stop(): Promise<void> {
    this.stopWatching?.();
    await this.job.stop();
  }

  /**
   * Follows the user's machines from now on; resolves once their machines are known, with the
   * function that stops following.
   */
  async follow(user: SignedInUser, send: SendListEvent): Promise<() => void> {
    const follower: Follower = { user, send, machines: new Map(), listed: null };
    this.followers.add(follower);
    await this.job.runNow();
    return () => {
      if (this.followers.delete(follower)) this.gatherAudiences();
    };
  }

  /**
   * Reads again, soon, which machines each connected user may see: after a grant, a
   * revocation, a machine added or renamed. A failure is logged by the job.
   */
  machinesChanged(): void {
    this.job.runNow().catch(() => undefined);
  }

  /** An event to every follower who may see its machine, presented and serialised once for all of them. */
  private forward(event: MachineEvent): void {
    const audience = this.audiences.get(event.machineId);
    if (!audience) return;
    const { sprinkler, followers } = audience;
    const live: MachineListEvent = { ...presentLiveEvent(sprinkler, event), sprinklerId: sprinkler.id };
    const frame = eventFrame(live.type, JSON.stringify(live));
    const latest = `${live.type} ${sprinkler.id}`;
    for (const follower of followers) follower.send(frame, latest);
  }

  private gatherAudiences(): void {
    const audiences: MachineListStreams['audiences'] = new Map();
    for (const follower of this.followers) {
      for (const [machineId, sprinkler] of follower.machines) {
        const audience = audiences.get(machineId);
        if (audience) audience.followers.push(follower);
        else audiences.set(machineId, { sprinkler, followers: [follower] });
      }
    }
    this.audiences = audiences;
  }

  /**
   * Two queries for all connected users: their grants, and the machines among them; read only
   * when the machines' digest changed since the last read or a follower has not been served yet.
   * An administrator follows every machine, 10,000 at a dealer's: read every 5 s, they held the
   * event loop for a large part of a second each time (docs/benchmarks.md, "The dealers' pages at
   * 10,000").
   */
  private async readMachines(): Promise<void> {
    const { db, access } = this.deps;
    const followers = [...this.followers];
    if (followers.length === 0) return;
    // Taken before the read: a change in between shows as a new digest at the next look.
    const digest = await machinesDigest(db);
    if (digest === this.readAtDigest && followers.every((follower) => follower.listed !== null)) return;
    const anyAdmin = followers.some((follower) => follower.user.admin);
    const userIds = [...new Set(followers.filter((f) => !f.user.admin).map((f) => f.user.id))];
    const grants = await access.machinesOfUsers(db, userIds);
    const rows = await listListedSprinklers(db, anyAdmin ? undefined : [...new Set([...grants.values()].flat())]);
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const follower of followers) {
      const visible = follower.user.admin
        ? rows
        : (grants.get(follower.user.id) ?? []).flatMap((id) => byId.get(id) ?? []);
      const listed = listedText(visible);
      follower.machines = new Map(visible.map((row) => [row.internalId, row]));
      // The browser reads the list as the stream opens: only later changes are news.
      if (follower.listed !== null && listed !== follower.listed) follower.send(MACHINES_CHANGED, 'machines');
      follower.listed = listed;
    }
    this.gatherAudiences();
    this.readAtDigest = digest;
  }
}
