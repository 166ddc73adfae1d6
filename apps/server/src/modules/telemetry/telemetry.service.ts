import { type SprinklerStatus, topics } from '@pivot/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Queryable } from '../../db/client';
import type { MachineEvent, MachineMessageHandlers } from '../../gateway/mqtt-gateway';
import type { HealthProblem } from '../../http/health';
import type { QuarantineService } from '../quarantine';
import { LiveHub } from './live-hub';
import { TelemetryIngest } from './telemetry-ingest';
import {
  type LiveStateFilter,
  type MachineLiveState,
  type StoredReport,
  type TelemetryRow,
  deleteRowsAt,
  findLiveStates,
  findMachineStates,
  findRunningPrograms,
  oldestRowTime,
  reportingMachineIds,
  reportsBetween,
  reportsOfMachinesBetween,
  rowsBetween,
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
    logger: FastifyBaseLogger,
    quarantine: QuarantineService,
  ) {
    // The report as parsed is what the database refused: it stands in for the raw payload.
    this.ingest = new TelemetryIngest(db, logger, ({ machineId, message }, detail) =>
      quarantine.setAside({
        machineId,
        deviceId: machineId,
        kind: 'telemetry',
        topic: topics.telemetry(machineId),
        payload: Buffer.from(JSON.stringify(message)),
        reason: 'refused',
        detail,
        explanation: { code: 'refused', databaseMessage: detail },
      }),
    );
  }

  /**
   * Where the gateway hands what machines report: telemetry goes through the batching ingest,
   * presence and program changes (rare) are stored at once.
   */
  readonly handlers: Pick<MachineMessageHandlers, 'telemetry' | 'presence' | 'program'> = {
    telemetry: ({ machineId }, message) => this.ingest.push({ machineId, message }),
    presence: ({ machineId }, message) =>
      updatePresence(this.db, machineId, message.online, new Date(message.ts ?? Date.now())),
    program: ({ machineId }, message) => updateMachineProgram(this.db, machineId, message.program),
  };

  /** A machine's report as it arrives on this instance, for the browsers watching it. */
  announce(event: MachineEvent): void {
    this.hub.publish(event);
  }

  /** Calls the listener for every live report of the machine until the returned function is called. */
  watch(machineId: string, listener: (event: MachineEvent) => void): () => void {
    return this.hub.subscribe(machineId, listener);
  }

  /** Calls the listener for every live report of every machine until the returned function is called. */
  watchAll(listener: (event: MachineEvent) => void): () => void {
    return this.hub.subscribeToAll(listener);
  }

  /** Stores everything received so far; resolves once it is in the database. */
  flush(): Promise<void> {
    return this.ingest.flush();
  }

  /** What health reports of telemetry ingestion on this instance. */
  problems(): HealthProblem[] {
    return this.ingest.problems();
  }

  /** Telemetry reports this instance has received since it started, for one machine. */
  received(machineId: string): number {
    return this.ingest.received(machineId);
  }

  /** Telemetry reports this instance has received since it started, of every machine. */
  receivedTotal(): number {
    return this.ingest.receivedTotal();
  }

  /** The latest state of each of the given machines, by broker ID. */
  statesOf(db: Queryable, machineIds: string[]): Promise<Map<string, MachineStateRow>> {
    return findMachineStates(db, machineIds);
  }

  /**
   * The latest state of the given machines without their programs' sectors, for a look at many
   * machines at a time: the sectors are the bulk of a row, and few such looks need them.
   */
  liveStatesOf(db: Queryable, machineIds: string[], only?: LiveStateFilter): Promise<Map<string, MachineLiveState>> {
    return findLiveStates(db, machineIds, only);
  }

  /** The sectors of the program each of the given machines runs, for those that run one. */
  runningProgramsOf(db: Queryable, machineIds: string[]) {
    return findRunningPrograms(db, machineIds);
  }

  /** The status a machine confirmed in its answer to a motion command, until its next report. */
  confirmStatus(db: Queryable, machineId: string, status: SprinklerStatus): Promise<void> {
    return updateMachineStatus(db, machineId, status);
  }

  /** A machine's stored reports from `from` up to `until`, oldest first. */
  reportsBetween(db: Queryable, machineId: string, from: Date, until: Date, limit: number): Promise<StoredReport[]> {
    return reportsBetween(db, machineId, from, until, limit);
  }

  /** Each machine's first stored report rows from its own `from` up to `until`, oldest first, in one query. */
  reportsOfMachinesBetween(
    db: Queryable,
    ranges: { machineId: string; from: Date }[],
    until: Date,
    limit: number,
  ): Promise<Map<string, StoredReport[]>> {
    return reportsOfMachinesBetween(db, ranges, until, limit);
  }

  /**
   * A machine's report rows from `from` (included) to `before` (excluded), every column, oldest
   * first. Rows only: days already packed are read through the telemetry-packing door, which
   * every reader of a range of reports uses.
   */
  rowsBetween(db: Queryable, machineId: string, from: Date, before: Date): Promise<TelemetryRow[]> {
    return rowsBetween(db, machineId, from, before);
  }

  /**
   * Deletes the machine's report rows with these timestamps (ms) and no other, so a report that
   * arrived after they were read stays; the number deleted. For the packing, in its transaction:
   * only rows of the DEFAULT partition are deleted, a day partition's go with it.
   */
  deleteRowsAt(db: Queryable, machineId: string, timestamps: number[]): Promise<number> {
    return deleteRowsAt(db, machineId, timestamps);
  }

  /** The time of the machine's oldest report row from `from` (included) to `before` (excluded), if any. */
  oldestRowTime(db: Queryable, machineId: string, from: Date, before: Date): Promise<Date | null> {
    return oldestRowTime(db, machineId, from, before);
  }

  /** Every machine that has reported anything: those that may have report rows. */
  reportingMachineIds(db: Queryable): Promise<string[]> {
    return reportingMachineIds(db);
  }
}
