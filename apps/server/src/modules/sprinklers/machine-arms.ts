import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import type { ArmDirectory, MachineArm } from '../../gateway/mqtt-gateway';
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
  private refreshTimer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: { db: Database; logger: FastifyBaseLogger }) {}

  async start(): Promise<void> {
    await this.refresh();
    this.refreshTimer = setInterval(() => {
      this.refresh().catch((error: unknown) =>
        this.deps.logger.warn({ err: error }, "reading the machines' arms failed"),
      );
    }, REFRESH_MS).unref();
  }

  stop(): void {
    clearInterval(this.refreshTimer);
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
