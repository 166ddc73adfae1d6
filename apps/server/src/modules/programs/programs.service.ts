import type { ProgramBody, SprinklerDetail } from '@pivot/contracts';
import type { Database, Queryable } from '../../db/client';
import { AppError } from '../../errors';
import type { ClientInfo } from '../auth/auth.service';
import { type NewLogEntry, insertLogEntry } from '../logs/logs.repository';
import type { SprinklerRow } from '../sprinklers/sprinklers.repository';
import {
  type MachineCommands,
  type SprinklersService,
  commandFailure,
  describeFailure,
  machineOf,
} from '../sprinklers/sprinklers.service';
import type { UserRow } from '../users/users.table';
import {
  countPrograms,
  deleteProgram,
  findProgram,
  insertProgram,
  lockProgramsOf,
  updateProgram,
} from './programs.repository';
import type { ProgramRow } from './programs.table';

export type ProgramsServiceDeps = {
  db: Database;
  machines: MachineCommands;
  sprinklers: SprinklersService;
  maxProgramsPerMachine: number;
};

type ProgramEvent = Extract<
  NewLogEntry['eventType'],
  'program_added' | 'program_updated' | 'program_deleted' | 'program_sent' | 'program_send_failure'
>;

/** Programs of a machine the user may use; every call answers the machine's detail. */
export class ProgramsService {
  constructor(private readonly deps: ProgramsServiceDeps) {}

  async create(actor: UserRow, sprinklerId: number, body: ProgramBody, client: ClientInfo): Promise<SprinklerDetail> {
    const sprinkler = await this.deps.sprinklers.accessible(actor, sprinklerId);
    return this.deps.db.transaction(async (tx) => {
      await lockProgramsOf(tx, sprinkler.id);
      if ((await countPrograms(tx, sprinkler.id)) >= this.deps.maxProgramsPerMachine) {
        throw new AppError('too_many_programs');
      }
      const program = await insertProgram(tx, sprinkler.id, body);
      await logProgramEvent(tx, 'program_added', actor, sprinkler, program, client);
      return this.deps.sprinklers.present(tx, sprinkler);
    });
  }

  async update(
    actor: UserRow,
    sprinklerId: number,
    programId: number,
    body: ProgramBody,
    client: ClientInfo,
  ): Promise<SprinklerDetail> {
    const { sprinkler } = await this.find(actor, sprinklerId, programId);
    return this.deps.db.transaction(async (tx) => {
      const program = await updateProgram(tx, programId, body);
      await logProgramEvent(tx, 'program_updated', actor, sprinkler, program, client);
      return this.deps.sprinklers.present(tx, sprinkler);
    });
  }

  async delete(actor: UserRow, sprinklerId: number, programId: number, client: ClientInfo): Promise<SprinklerDetail> {
    const { sprinkler, program } = await this.find(actor, sprinklerId, programId);
    return this.deps.db.transaction(async (tx) => {
      await deleteProgram(tx, program.id);
      await logProgramEvent(tx, 'program_deleted', actor, sprinkler, program, client);
      return this.deps.sprinklers.present(tx, sprinkler);
    });
  }

  /**
   * Uploads a program to its machine and answers once the machine has received it. The machine
   * then processes it and reports it as its current program, which the detail shows shortly after.
   */
  async send(actor: UserRow, sprinklerId: number, programId: number, client: ClientInfo): Promise<SprinklerDetail> {
    const { db, machines } = this.deps;
    const { sprinkler, program } = await this.find(actor, sprinklerId, programId);
    const outcome = await machines.command(sprinkler.internalId, {
      type: 'program',
      program: { name: program.name, programData: program.programData },
    });
    if (outcome.kind !== 'ok') {
      await logProgramEvent(db, 'program_send_failure', actor, sprinkler, program, client, describeFailure(outcome));
      throw commandFailure(outcome);
    }
    await logProgramEvent(db, 'program_sent', actor, sprinkler, program, client);
    return this.deps.sprinklers.present(db, sprinkler);
  }

  private async find(actor: UserRow, sprinklerId: number, programId: number) {
    const sprinkler = await this.deps.sprinklers.accessible(actor, sprinklerId).catch((error: unknown) => {
      throw error instanceof AppError ? new AppError('program_not_found') : error;
    });
    const program = await findProgram(this.deps.db, sprinkler.id, programId);
    if (!program) throw new AppError('program_not_found');
    return { sprinkler, program };
  }
}

function logProgramEvent(
  db: Queryable,
  eventType: ProgramEvent,
  actor: UserRow,
  sprinkler: SprinklerRow,
  program: ProgramRow,
  client: ClientInfo,
  details = '',
): Promise<void> {
  return insertLogEntry(db, {
    eventType,
    actorUserId: actor.id,
    sprinkler: machineOf(sprinkler),
    event: program.name,
    details,
    ip: client.ip,
  });
}
