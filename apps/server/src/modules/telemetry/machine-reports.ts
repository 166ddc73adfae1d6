import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import type { MachineMessageHandlers } from '../../gateway/mqtt-gateway';
import type { TelemetryIngest } from './telemetry-ingest';
import { updateMachineProgram, updatePresence } from './telemetry.repository';

/**
 * Where the gateway hands what machines report: telemetry goes through the batching ingest,
 * presence and program changes (rare) are stored at once.
 */
export function machineReportHandlers(
  db: Database,
  ingest: TelemetryIngest,
  logger: FastifyBaseLogger,
): Pick<MachineMessageHandlers, 'telemetry' | 'presence' | 'program'> {
  const store = (what: string, machineId: string, work: Promise<void>) =>
    work.catch((error: unknown) => logger.error({ err: error, machineId }, `storing ${what} failed`));
  return {
    telemetry: (machineId, message) => ingest.push({ machineId, message }),
    presence: (machineId, message) =>
      void store(
        'presence',
        machineId,
        updatePresence(db, machineId, message.online, new Date(message.ts ?? Date.now())),
      ),
    program: (machineId, message) =>
      void store('the machine program', machineId, updateMachineProgram(db, machineId, message.program)),
  };
}
