/**
 * The autopilot's hands (docs/autopilot.md, "The watcher", "One tap"): the commands it sends, for
 * the server itself (no user, no address: the watcher) or for the person who asked for the pass
 * with one tap (their id and address), through the commands module as every command goes:
 * recorded, sent, answered, a failure logged and thrown; a success logged here as a person's is.
 * They are the autopilot's own pass whoever asked: they take nothing over.
 */
import type { ProgramData } from '@pivot/contracts';
import type { Database } from '../../db/client';
import type { MachineCommands } from '../commands';
import type { LogsService } from '../logs';
import type { TelemetryService } from '../telemetry';
import type { WatchedMachine } from './autopilot-inputs';
import type { AutopilotHands, PassActor } from './autopilot-watch';

export class CommandHands implements AutopilotHands {
  constructor(
    private readonly deps: {
      db: Database;
      commands: Pick<MachineCommands, 'run'>;
      telemetry: Pick<TelemetryService, 'confirmStatus'>;
      logs: Pick<LogsService, 'record'>;
    },
  ) {}

  async sendProgram(machine: WatchedMachine, name: string, programData: ProgramData, by: PassActor): Promise<void> {
    const logged = loggedMachine(machine);
    await this.deps.commands.run(
      { type: 'program', program: { name, programData } },
      { ...audit(by), machine: logged, event: name, failure: 'program_send_failure' },
    );
    await this.deps.logs.record(this.deps.db, {
      eventType: 'program_sent',
      actorUserId: by.userId,
      sprinkler: logged,
      event: name,
      ip: by.ip,
    });
  }

  async move(machine: WatchedMachine, motion: 'front' | 'stop', by: PassActor): Promise<void> {
    const logged = loggedMachine(machine);
    const result = await this.deps.commands.run(
      { type: 'motion', motion },
      { ...audit(by), machine: logged, event: motion, failure: 'sprinkler_motion_failure' },
    );
    await this.deps.telemetry.confirmStatus(this.deps.db, machine.internalId, result.status);
    await this.deps.logs.record(this.deps.db, {
      eventType: 'sprinkler_motion_success',
      actorUserId: by.userId,
      sprinkler: logged,
      event: motion,
      ip: by.ip,
    });
  }
}

/** Who the command is sent for; the autopilot's own pass, which takes nothing over. */
function audit(by: PassActor) {
  return { actorUserId: by.userId, ip: by.ip, autopilot: true } as const;
}

function loggedMachine(machine: WatchedMachine) {
  return { id: machine.sprinklerId, name: machine.name, internalId: machine.internalId };
}
