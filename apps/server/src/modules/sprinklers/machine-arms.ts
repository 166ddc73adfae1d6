import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import type { ArmDirectory, MachineArm } from '../../gateway/mqtt-gateway';
import { RepeatingJob } from '../../time/repeating-job';
import { listMachineArms } from './sprinklers.repository';

/**
 * A machine added on another instance is known here within this time; until then its reports
 * are held to the protocol's limits only.
 */
const REFRESH_MS = 60_000;

/**
 * Each added machine's pivot centre and arm length, in memory for the gateway to judge every
 * report by without a query: read at start, after a machine is added here, and every minute.
 */
export class MachineArms implements ArmDirectory {
  private arms = new Map<string, MachineArm>();
  private readonly refreshing: RepeatingJob;

  constructor(private readonly deps: { db: Database; logger: FastifyBaseLogger }) {
    this.refreshing = new RepeatingJob(() => this.refresh(), {
      everyMs: REFRESH_MS,
      onError: (error) => deps.logger.warn({ err: error }, "reading the machines' arms failed"),
    });
  }

  async start(): Promise<void> {
    await this.refresh();
    this.refreshing.start();
  }

  stop(): Promise<void> {
    return this.refreshing.stop();
  }

  armOf(machineId: string): MachineArm | undefined {
    return this.arms.get(machineId);
  }

  /** A machine just added on this instance. */
  learn(machineId: string, arm: MachineArm): void {
    this.arms.set(machineId, arm);
  }

  /** Reads every machine's arm again. A machine whose arm is not known (0) is left out. */
  async refresh(): Promise<void> {
    const rows = await listMachineArms(this.deps.db);
    this.arms = new Map(
      rows
        .filter((row) => row.armLength > 0)
        .map((row) => [
          row.internalId,
          { centre: { lat: Number(row.lat), lng: Number(row.lng) }, armLength: row.armLength },
        ]),
    );
  }
}
