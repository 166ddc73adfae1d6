import {
  type AutopilotChangeReason,
  type AutopilotMode,
  type AutopilotRules,
  AutopilotRulesSchema,
  type AutopilotSettings,
  type AutopilotSettingsBody,
  defaultAutopilotRules,
} from '@pivot/contracts';
import type { Database, Queryable } from '../../db/client';
import type { ClientInfo, SignedInUser } from '../../http/request-context';
import type { CommandSending } from '../commands';
import type { LogsService, NewLogEntry } from '../logs';
import { type SprinklersService, loggedMachine } from '../sprinklers';
import {
  findAutopilotSettings,
  findAutopilotSettingsForUpdate,
  findPlannedStarts,
  listActiveAutopilots,
  upsertAutopilotSettings,
} from './autopilot-settings.repository';
import type { AutopilotSettingsRow } from './autopilot.table';

export type AutopilotSettingsServiceDeps = {
  db: Database;
  sprinklers: Pick<SprinklersService, 'accessible' | 'controllable' | 'watched'>;
  logs: Pick<LogsService, 'record'>;
  /**
   * Told once a machine's autopilot is turned off: the watcher no longer looks at it, so what it
   * left open (an "Irrigation due") is closed here.
   */
  turnedOff?: (machine: { id: number; name: string; internalId: string }) => Promise<void>;
};

/** A machine the autopilot's watcher looks at: its mode is suggest or auto. */
export type WatchedAutopilot = {
  sprinklerId: number;
  internalId: string;
  name: string;
  mode: Exclude<AutopilotMode, 'off'>;
  rules: AutopilotRules;
  /** What the watcher kept of the machine at its last look (its own shape; {} at first). */
  memory: Record<string, unknown>;
};

/**
 * Each machine's autopilot mode and rules (docs/autopilot.md, "The modes and where they are
 * set"): read by everyone the machine is granted to, set by those with control, every change in
 * the activity log. A person's command or program to a machine in auto takes it over: the mode
 * becomes suggest (`takeOver`, told by the commands module before each send).
 */
export class AutopilotSettingsService {
  constructor(private readonly deps: AutopilotSettingsServiceDeps) {}

  async settingsFor(actor: SignedInUser, sprinklerId: number): Promise<AutopilotSettings> {
    const sprinkler = await this.deps.sprinklers.accessible(actor, sprinklerId);
    return presentSettings(await findAutopilotSettings(this.deps.db, sprinkler.id));
  }

  /**
   * Stores the mode and rules; a change of either is logged (`sprinkler_autopilot_updated`,
   * details 'user') in the same transaction. Saving what is stored already changes nothing and
   * logs nothing.
   */
  async save(
    actor: SignedInUser,
    sprinklerId: number,
    body: AutopilotSettingsBody,
    client: ClientInfo,
  ): Promise<AutopilotSettings> {
    const sprinkler = await this.deps.sprinklers.controllable(actor, sprinklerId);
    const row = await this.deps.db.transaction(async (tx) => {
      const stored = await findAutopilotSettingsForUpdate(tx, sprinkler.id);
      const before = presentSettings(stored);
      const changed = before.mode !== body.mode || !sameRules(before.rules, body.rules);
      if (stored && !changed) return stored;
      // A machine never set is off with the defaults: saving just that stores it, unlogged.
      const saved = await upsertAutopilotSettings(tx, {
        sprinklerId: sprinkler.id,
        mode: body.mode,
        rules: body.rules,
        updatedBy: actor.id,
      });
      if (changed) {
        await this.log(
          tx,
          { actorUserId: actor.id, machine: loggedMachine(sprinkler), ip: client.ip },
          body.mode,
          'user',
        );
      }
      return saved;
    });
    if (body.mode === 'off') {
      await this.deps.turnedOff?.({ id: sprinkler.id, name: sprinkler.name, internalId: sprinkler.internalId });
    }
    return presentSettings(row);
  }

  /**
   * The passes the autopilot will start itself at a later moment (machines in auto, a start put
   * off to a cheaper zone or the allowed hours), by machine id: a dealer's fleet. Not access-checked:
   * the caller names the machines its reader is granted.
   */
  plannedStarts(sprinklerIds: number[], now: number): Promise<Map<number, number>> {
    return findPlannedStarts(this.deps.db, sprinklerIds, now);
  }

  /**
   * Every machine whose autopilot is suggest or auto, by machine id, with its rules and the
   * watcher's memory: what the watcher looks at.
   */
  async watched(db: Queryable = this.deps.db): Promise<WatchedAutopilot[]> {
    const rows = await listActiveAutopilots(db);
    if (rows.length === 0) return [];
    const machines = new Map((await this.deps.sprinklers.watched(db)).map((machine) => [machine.id, machine]));
    return rows.flatMap((row) => {
      const machine = machines.get(row.sprinklerId);
      if (!machine || row.mode === 'off') return [];
      return [
        {
          sprinklerId: row.sprinklerId,
          internalId: machine.internalId,
          name: machine.name,
          mode: row.mode,
          rules: storedRules(row.rules),
          memory: row.memory,
        },
      ];
    });
  }

  /**
   * The farmer always wins: a person's command or program to a machine whose autopilot is auto
   * turns it to suggest, logged as 'taken_over' in one transaction. A send of the server itself
   * (`actorUserId` null: the watcher), or of the autopilot's own pass a person asked for with one
   * tap (`autopilot`), takes nothing over; a machine in suggest or off stays so.
   * Answers whether the machine was taken over.
   */
  async takeOver(sending: Pick<CommandSending, 'machine' | 'actorUserId' | 'ip' | 'autopilot'>): Promise<boolean> {
    const { machine, actorUserId, ip } = sending;
    if (actorUserId === null || sending.autopilot || machine.id === null) return false;
    const sprinklerId = machine.id;
    // Most machines are not in auto: a look without a lock first.
    if ((await findAutopilotSettings(this.deps.db, sprinklerId))?.mode !== 'auto') return false;
    return this.deps.db.transaction(async (tx) => {
      const stored = await findAutopilotSettingsForUpdate(tx, sprinklerId);
      if (stored?.mode !== 'auto') return false;
      await upsertAutopilotSettings(tx, { sprinklerId, mode: 'suggest', rules: stored.rules, updatedBy: actorUserId });
      await this.log(tx, { actorUserId, machine, ip }, 'suggest', 'taken_over');
      return true;
    });
  }

  private async log(
    tx: Queryable,
    by: { actorUserId: number | null; machine: NonNullable<NewLogEntry['sprinkler']>; ip: string },
    mode: AutopilotMode,
    reason: AutopilotChangeReason,
  ): Promise<void> {
    await this.deps.logs.record(tx, {
      eventType: 'sprinkler_autopilot_updated',
      actorUserId: by.actorUserId,
      sprinkler: by.machine,
      event: mode,
      details: reason,
      ip: by.ip,
    });
  }
}

/** A machine's stored autopilot as the API gives it; never set: off, with the rules' defaults. */
function presentSettings(row: AutopilotSettingsRow | undefined): AutopilotSettings {
  if (!row) return { mode: 'off', rules: defaultAutopilotRules(), updatedAt: null };
  return { mode: row.mode, rules: storedRules(row.rules), updatedAt: row.updatedAt.getTime() };
}

/**
 * Stored rules as the schema reads them now: a rule added since they were saved takes its
 * default. Rules a later schema would refuse are given as stored rather than failing the machine.
 */
function storedRules(rules: AutopilotRules): AutopilotRules {
  const parsed = AutopilotRulesSchema.safeParse(rules);
  return parsed.success ? parsed.data : rules;
}

/** Whether two parsed rules say the same (jsonb does not keep the keys' order). */
function sameRules(a: AutopilotRules, b: AutopilotRules): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
