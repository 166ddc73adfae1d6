import type { Program, ProgramBody, SprinklerDetail } from '@pivot/contracts';
import type { Database, Queryable } from '../../db/client';
import { AppError } from '../../errors';
import type { ClientInfo, SignedInUser } from '../../http/request-context';
import type { MachineCommands } from '../commands';
import type { LogsService, NewLogEntry } from '../logs';
import { type SprinklerRow, type SprinklersService, loggedMachine } from '../sprinklers';
import {
  countPrograms,
  deleteProgram,
  findProgram,
  insertProgram,
  listPrograms,
  lockProgramsOf,
  updateProgram,
} from './programs.repository';
import type { ProgramRow } from './programs.table';

export type ProgramsServiceDeps = {
  db: Database;
  sprinklers: SprinklersService;
  commands: MachineCommands;
  logs: LogsService;
  maxProgramsPerMachine: number;
};

type ProgramEvent = Extract<
  NewLogEntry['eventType'],
  'program_added' | 'program_updated' | 'program_deleted' | 'program_sent'
>;

/** Programs of a machine: seen by whoever may watch it, changed and sent by whoever may control it; every change answers the machine's detail. */
export class ProgramsService {
  constructor(private readonly deps: ProgramsServiceDeps) {}

  /** The programs stored for a machine, as its detail shows them. */
  async listFor(db: Queryable, sprinklerId: number): Promise<Program[]> {
    const rows = await listPrograms(db, sprinklerId);
    return rows.map((row) => ({ id: row.id, name: row.name, programData: row.programData }));
  }

  async create(
    actor: SignedInUser,
    sprinklerId: number,
    body: ProgramBody,
    client: ClientInfo,
  ): Promise<SprinklerDetail> {
    const sprinkler = await this.deps.sprinklers.controllable(actor, sprinklerId);
    return this.deps.db.transaction(async (tx) => {
      await lockProgramsOf(tx, sprinkler.id);
      if ((await countPrograms(tx, sprinkler.id)) >= this.deps.maxProgramsPerMachine) {
        throw new AppError('too_many_programs');
      }
      const program = await insertProgram(tx, sprinkler.id, body);
      await this.logProgramEvent(tx, 'program_added', actor, sprinkler, program, client);
      return this.deps.sprinklers.present(tx, sprinkler, actor);
    });
  }

  async update(
    actor: SignedInUser,
    sprinklerId: number,
    programId: number,
    body: ProgramBody,
    client: ClientInfo,
  ): Promise<SprinklerDetail> {
    const { sprinkler } = await this.find(actor, sprinklerId, programId);
    return this.deps.db.transaction(async (tx) => {
      const program = await updateProgram(tx, programId, body);
      await this.logProgramEvent(tx, 'program_updated', actor, sprinkler, program, client);
      return this.deps.sprinklers.present(tx, sprinkler, actor);
    });
  }

  async delete(
    actor: SignedInUser,
    sprinklerId: number,
    programId: number,
    client: ClientInfo,
  ): Promise<SprinklerDetail> {
    const { sprinkler, program } = await this.find(actor, sprinklerId, programId);
    return this.deps.db.transaction(async (tx) => {
      await deleteProgram(tx, program.id);
      await this.logProgramEvent(tx, 'program_deleted', actor, sprinkler, program, client);
      return this.deps.sprinklers.present(tx, sprinkler, actor);
    });
  }

  /**
   * Uploads a program to its machine and answers once the machine has received it. The machine
   * then processes it and reports it as its current program, which the detail shows shortly after.
   */
  async send(
    actor: SignedInUser,
    sprinklerId: number,
    programId: number,
    client: ClientInfo,
  ): Promise<SprinklerDetail> {
    const { db, commands } = this.deps;
    const { sprinkler, program } = await this.find(actor, sprinklerId, programId);
    await commands.run(
      { type: 'program', program: { name: program.name, programData: program.programData } },
      {
        actorUserId: actor.id,
        machine: loggedMachine(sprinkler),
        event: program.name,
        ip: client.ip,
        failure: 'program_send_failure',
      },
    );
    await this.logProgramEvent(db, 'program_sent', actor, sprinkler, program, client);
    return this.deps.sprinklers.present(db, sprinkler, actor);
  }

  /** A program of a machine the actor may control; a machine the actor may only watch is watch_only. */
  private async find(actor: SignedInUser, sprinklerId: number, programId: number) {
    const sprinkler = await this.deps.sprinklers.controllable(actor, sprinklerId).catch((error: unknown) => {
      throw error instanceof AppError && error.code === 'sprinkler_not_found'
        ? new AppError('program_not_found')
        : error;
    });
    const program = await findProgram(this.deps.db, sprinkler.id, programId);
    if (!program) throw new AppError('program_not_found');
    return { sprinkler, program };
  }

  private async logProgramEvent(
    db: Queryable,
    eventType: ProgramEvent,
    actor: SignedInUser,
    sprinkler: SprinklerRow,
    program: ProgramRow,
    client: ClientInfo,
  ): Promise<void> {
    await this.deps.logs.record(db, {
      eventType,
      actorUserId: actor.id,
      sprinkler: loggedMachine(sprinkler),
      event: program.name,
      ip: client.ip,
    });
  }
}
