import type { SprinklerStatus } from '@pivot/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Queryable } from '../../db/client';
import type { MachineEvent, MachineMessageHandlers } from '../../gateway/mqtt-gateway';
import { LiveHub } from './live-hub';
import { TelemetryIngest } from './telemetry-ingest';
import {
  type StoredReport,
  findMachineStates,
  reportsBetween,
  updateMachineProgram,
  updateMachineStatus,
  updatePresence,
} from './telemetry.repository';
import type { MachineStateRow } from './telemetry.table';

/**
 * What machines report: every telemetry report (stored in batches), each machine's latest state,
 * presence and program, and the live stream of their reports for browsers.
 */
export class TelemetryService {
  private readonly ingest: TelemetryIngest;
  private readonly hub = new LiveHub();

  constructor(
    private readonly db: Database,
    private readonly logger: FastifyBaseLogger,
  ) {
    this.ingest = new TelemetryIngest(db, logger);
  }

  /**
   * Where the gateway hands what machines report: telemetry goes through the batching ingest,
   * presence and program changes (rare) are stored at once.
   */
  readonly handlers: Pick<MachineMessageHandlers, 'telemetry' | 'presence' | 'program'> = {
    telemetry: ({ machineId }, message) => this.ingest.push({ machineId, message }),
    presence: ({ machineId }, message) =>
      this.store(
        'presence',
        machineId,
        updatePresence(this.db, machineId, message.online, new Date(message.ts ?? Date.now())),
      ),
    program: ({ machineId }, message) =>
      this.store('the machine program', machineId, updateMachineProgram(this.db, machineId, message.program)),
  };

  /** A machine's report as it arrives on this instance, for the browsers watching it. */
  announce(event: MachineEvent): void {
    this.hub.publish(event);
  }

  /** Calls the listener for every live report of the machine until the returned function is called. */
  watch(machineId: string, listener: (event: MachineEvent) => void): () => void {
    return this.hub.subscribe(machineId, listener);
  }

  /** Stores everything received so far; resolves once it is in the database. */
  flush(): Promise<void> {
    return this.ingest.flush();
  }

  /** Telemetry reports this instance has received since it started, for one machine. */
  received(machineId: string): number {
    return this.ingest.received(machineId);
  }

  /** The latest state of each of the given machines, by broker ID. */
  statesOf(db: Queryable, machineIds: string[]): Promise<Map<string, MachineStateRow>> {
    return findMachineStates(db, machineIds);
  }

  /** The status a machine confirmed in its answer to a motion command, until its next report. */
  confirmStatus(db: Queryable, machineId: string, status: SprinklerStatus): Promise<void> {
    return updateMachineStatus(db, machineId, status);
  }

  /** A machine's stored reports from `from` up to `until`, oldest first. */
  reportsBetween(db: Queryable, machineId: string, from: Date, until: Date, limit: number): Promise<StoredReport[]> {
    return reportsBetween(db, machineId, from, until, limit);
  }

  private store(what: string, machineId: string, work: Promise<void>): void {
    work.catch((error: unknown) => this.logger.error({ err: error, machineId }, `storing ${what} failed`));
  }
}
