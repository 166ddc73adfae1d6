/**
 * The autopilot's hands (docs/autopilot.md, "The watcher"): the commands it sends as the server
 * itself, no user, through the commands module as every command goes: recorded, sent, answered,
 * a failure logged and thrown; a success logged here as a person's is.
 */
import type { ProgramData } from '@pivot/contracts';
import type { Database } from '../../db/client';
import type { MachineCommands } from '../commands';
import type { LogsService } from '../logs';
import type { TelemetryService } from '../telemetry';
import type { WatchedMachine } from './autopilot-inputs';
import type { AutopilotHands } from './autopilot-watch';

/** The server's own commands carry no address: no request asked for them. */
const NO_ADDRESS = '';

export class CommandHands implements AutopilotHands {
  constructor(
    private readonly deps: {
      db: Database;
      commands: Pick<MachineCommands, 'run'>;
      telemetry: Pick<TelemetryService, 'confirmStatus'>;
      logs: Pick<LogsService, 'record'>;
    },
  ) {}

  async sendProgram(machine: WatchedMachine, name: string, programData: ProgramData): Promise<void> {
    const logged = loggedMachine(machine);
    await this.deps.commands.run(
      { type: 'program', program: { name, programData } },
      { actorUserId: null, machine: logged, event: name, ip: NO_ADDRESS, failure: 'program_send_failure' },
    );
    await this.deps.logs.record(this.deps.db, {
      eventType: 'program_sent',
      actorUserId: null,
      sprinkler: logged,
      event: name,
      ip: NO_ADDRESS,
    });
  }

  async move(machine: WatchedMachine, motion: 'front' | 'stop'): Promise<void> {
    const logged = loggedMachine(machine);
    const result = await this.deps.commands.run(
      { type: 'motion', motion },
      { actorUserId: null, machine: logged, event: motion, ip: NO_ADDRESS, failure: 'sprinkler_motion_failure' },
    );
    await this.deps.telemetry.confirmStatus(this.deps.db, machine.internalId, result.status);
    await this.deps.logs.record(this.deps.db, {
      eventType: 'sprinkler_motion_success',
      actorUserId: null,
      sprinkler: logged,
      event: motion,
      ip: NO_ADDRESS,
    });
  }
}

function loggedMachine(machine: WatchedMachine) {
  return { id: machine.sprinklerId, name: machine.name, internalId: machine.internalId };
}
