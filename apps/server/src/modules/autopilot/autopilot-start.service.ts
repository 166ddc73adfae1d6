import type { SprinklerDetail } from '@pivot/contracts';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import type { ClientInfo, SignedInUser } from '../../http/request-context';
import type { SprinklersService } from '../sprinklers';
import { type AutopilotSources, gatherInput, gatherPumpPeers } from './autopilot-inputs';
import { parseMemory } from './autopilot-memory';
import { saveMemory } from './autopilot-settings.repository';
import type { AutopilotSettingsService } from './autopilot-settings.service';
import { type AutopilotWatch, type PumpMember, beginRun, pumpPeersOf, runMark, startNow } from './autopilot-watch';
import { type Decision, decideNext } from './decide';

/**
 * "Water now as advised" (docs/autopilot.md, "One tap"): a person with control asks the autopilot
 * for the pass it would start now, and it starts it as auto would, through the watcher's own start
 * (`AutopilotWatch.startPass`: the claim, the program from the advice, then front), the person its
 * actor in the activity log. The pass is the autopilot's own: it takes nothing over, and it ends
 * with its revolution in any mode. Refused, before any command, with a code the page explains.
 */
export class AutopilotStartService {
  constructor(
    private readonly deps: {
      db: Database;
      sprinklers: Pick<SprinklersService, 'controllable' | 'present'>;
      settings: Pick<AutopilotSettingsService, 'watched'>;
      sources: AutopilotSources;
      watch: Pick<AutopilotWatch, 'startPass'>;
      clock?: () => number;
    },
  ) {}

  async start(actor: SignedInUser, sprinklerId: number, client: ClientInfo): Promise<SprinklerDetail> {
    const { db, sprinklers, settings, sources, watch } = this.deps;
    // Control, as for a motion or a program: sprinkler_not_found, or watch_only to a watcher.
    const sprinkler = await sprinklers.controllable(actor, sprinklerId);
    // What the watcher looks at: the machine (not off) and its pump group's peers, as it reads them.
    const watched = (await settings.watched()).map((machine) => ({ ...machine, memory: parseMemory(machine.memory) }));
    const machine = watched.find((item) => item.sprinklerId === sprinkler.id);
    if (!machine) throw new AppError('autopilot_off');
    const now = this.deps.clock?.() ?? Date.now();
    const incidents = await sources.openIncidents();
    const input = await gatherInput(sources, machine, incidents, now);
    if (input.machine.watering !== null) throw new AppError('already_watering');
    const peers = await gatherPumpPeers(sources, machine, watched, incidents, now);
    const members: PumpMember[] = [{ machine, input }, ...peers].map((member) => ({
      id: member.machine.sprinklerId,
      name: member.machine.name,
      input: member.input,
    }));
    const decision = decideNext({ ...input, pump: pumpPeersOf(members)(machine.sprinklerId) });
    const refused = safetyRefusal(decision);
    if (refused) throw new AppError(refused);
    const start = startNow(decision);
    const { programData, revolutionHours } = input.program;
    if (start === null || programData === null || revolutionHours === null) throw new AppError('nothing_due');
    const kept = structuredClone(machine.memory);
    beginRun(kept, start, { now, revolutionHours, asked: true });
    if (!(await watch.startPass(machine, input, kept, now, { userId: actor.id, ip: client.ip }))) {
      throw new AppError('start_in_progress');
    }
    await saveMemory(db, sprinkler.id, kept, runMark(kept));
    return sprinklers.present(db, sprinkler, actor);
  }
}

/** The decision's safety refusal (decide.ts, rule 1: offline, alarm, an open incident) as the one tap's code. */
function safetyRefusal(decision: Decision): 'sprinkler_offline' | 'sprinkler_in_alarm' | null {
  if (decision.kind !== 'refuse') return null;
  if (decision.reason === 'offline' || decision.incident === 'offline') return 'sprinkler_offline';
  return decision.reason === 'alarm' || decision.reason === 'incident' ? 'sprinkler_in_alarm' : null;
}
