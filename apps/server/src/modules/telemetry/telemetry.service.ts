import { type SprinklerStatus, topics } from '@pivot/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Queryable } from '../../db/client';
import type { MachineEvent, MachineMessageHandlers } from '../../gateway/mqtt-gateway';
import type { HealthProblem } from '../../http/health';
import type { QuarantineService } from '../quarantine';
import { InArrivalOrder } from './in-arrival-order';
import { LiveHub } from './live-hub';
import { TelemetryIngest } from './telemetry-ingest';
import {
  type LiveStateFilter,
  type MachineLiveState,
  findLiveStates,
  findMachineStates,
  findRunningPrograms,
  markAllOffline,
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
  /** A machine's presence and program messages, stored in the order they came. */
  private readonly machineMessages = new InArrivalOrder();

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
   * presence and program changes (rare) are stored at once, each machine's in the order they came.
   */
  readonly handlers: Pick<MachineMessageHandlers, 'telemetry' | 'presence' | 'program'> = {
    telemetry: ({ machineId }, message) => this.ingest.push({ machineId, message }),
    presence: ({ machineId }, message) => {
      const at = new Date(message.ts ?? Date.now());
      return this.machineMessages.run(machineId, () => updatePresence(this.db, machineId, message.online, at));
    },
    program: ({ machineId }, message) =>
      this.machineMessages.run(machineId, () => updateMachineProgram(this.db, machineId, message.program)),
  };

  /** No controller is connected (the embedded broker has just started): every machine offline until it says otherwise. */
  allDisconnected(): Promise<void> {
    return markAllOffline(this.db, new Date());
  }

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
}
