import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { RepeatingJob } from '../../time/repeating-job';
import type { SprinklersService } from '../sprinklers';
import { type IncidentRecorders, recordIncidents } from './incident-record';
import {
  claimJobRun,
  endIncidents,
  findOpenIncidents,
  incidentKey,
  lockWatch,
  openIncidents,
} from './incidents.repository';

/**
 * The water balance changes with the day: once an hour is soon enough (the balances it reads are
 * themselves kept for up to an hour, docs/advice.md).
 */
const LOOK_EVERY_MS = 60 * 60_000;
/**
 * An instance's hourly look runs unless another's ran within this: a little less than the hour,
 * so that the instance that looked last hour is not kept from it by its own timer's drift.
 */
const LOOKED_WITHIN_MS = LOOK_EVERY_MS - 5 * 60_000;
const JOB = 'water_stress';

/**
 * Raises the water_stress incident (docs/alerts.md, docs/advice.md): a machine one of whose crop
 * zones has a mean depletion beyond its RAW at the end of the last complete day; it ends when no
 * zone is. The detail names the zones. Reading every season's balance is costly, so of any number
 * of instances one looks each hour (a claim in `job_runs`). The balances are read outside the
 * lock; opening and ending happen under the incident watch's lock, so each incident begins and
 * ends once.
 */
export class WaterStressWatch {
  /** Run hourly (no argument: claimed first) and on demand (`lookOnce`, given the time: looks at once). */
  private readonly job = new RepeatingJob<number>(
    async (now) => {
      if (now === undefined) await this.lookIfDue();
      else await this.look(now);
    },
    {
      everyMs: LOOK_EVERY_MS,
      onError: (error) => this.deps.logger.error({ err: error }, 'watching for water stress failed'),
    },
  );

  constructor(
    private readonly deps: IncidentRecorders & {
      db: Database;
      sprinklers: Pick<SprinklersService, 'watched'>;
      /** Each machine with stressed zones, by its id, with the zones' names. */
      stress: { stressedZones(): Promise<Map<number, string[]>> };
      logger: FastifyBaseLogger;
    },
  ) {}

  start(): void {
    this.job.start();
    void this.job.runNow();
  }

  stop(): Promise<void> {
    return this.job.stop();
  }

  /** Looks now, whenever the last look was; resolves when done. */
  lookOnce(now = Date.now()): Promise<void> {
    return this.job.runNow(now);
  }

  /** The hourly look: unless another instance looked within the hour; whether this one looked. */
  async lookIfDue(now = Date.now()): Promise<boolean> {
    if (!(await claimJobRun(this.deps.db, JOB, new Date(now), LOOKED_WITHIN_MS))) return false;
    await this.look(now);
    return true;
  }

  private async look(now: number): Promise<void> {
    const { db, sprinklers, stress } = this.deps;
    const stressed = await stress.stressedZones();
    const raised = await db.transaction(async (tx) => {
      await lockWatch(tx);
      const open = await findOpenIncidents(tx);
      const machines = await sprinklers.watched(tx);
      const at = new Date(now);
      const beginning = machines.filter(
        (machine) => stressed.has(machine.id) && !open.get(machine.internalId)?.has('water_stress'),
      );
      const ending = machines.flatMap((machine) => {
        const incident = open.get(machine.internalId)?.get('water_stress');
        return incident && !stressed.has(machine.id) ? [{ machine, incident }] : [];
      });
      const detailOf = (machine: (typeof machines)[number]) => stressed.get(machine.id)!.join(', ');
      const opened = await openIncidents(
        tx,
        beginning.map((machine) => ({
          machineId: machine.internalId,
          kind: 'water_stress',
          beganAt: at,
          detail: detailOf(machine),
        })),
      );
      const ended = await endIncidents(
        tx,
        ending.map(({ incident }) => incident.id),
        at,
      );
      return recordIncidents(this.deps, tx, [
        ...beginning
          .filter((machine) => opened.has(incidentKey(machine.internalId, 'water_stress')))
          .map((machine) => ({
            machine,
            kind: 'water_stress' as const,
            phase: 'began' as const,
            detail: detailOf(machine),
          })),
        ...ending
          .filter(({ incident }) => ended.has(incident.id))
          .map(({ machine }) => ({ machine, kind: 'water_stress' as const, phase: 'ended' as const, detail: '' })),
      ]);
    });
    if (raised > 0) this.deps.alerts.raiseCommitted();
  }
}
