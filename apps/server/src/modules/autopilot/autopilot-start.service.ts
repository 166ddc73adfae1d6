import type { SprinklerDetail } from '@pivot/contracts';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import type { ClientInfo, SignedInUser } from '../../http/request-context';
import type { SprinklersService } from '../sprinklers';
import { type AutopilotSources, type GatheredInput, SAFETY_INCIDENTS, gatherInput } from './autopilot-inputs';
import { parseMemory } from './autopilot-memory';
import { saveMemory } from './autopilot-settings.repository';
import type { AutopilotSettingsService } from './autopilot-settings.service';
import { type AutopilotWatch, type PumpMember, beginRun, pumpPeersOf, runMark, startNow } from './autopilot-watch';
import { decideNext } from './decide';

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
    const open = incidents.get(machine.internalId) ?? [];
    if (input.detail.status === 'front' || input.detail.status === 'back') throw new AppError('already_watering');
    if (!input.detail.online || open.includes('offline')) throw new AppError('sprinkler_offline');
    if (input.machine.alarm || open.some((kind) => SAFETY_INCIDENTS.includes(kind))) {
      throw new AppError('sprinkler_in_alarm');
    }
    const group = machine.rules.pumpGroup?.id;
    const members: PumpMember[] = [{ id: machine.sprinklerId, name: machine.name, input }];
    if (group !== undefined) {
      for (const peer of watched) {
        if (peer.sprinklerId === machine.sprinklerId || peer.rules.pumpGroup?.id !== group) continue;
        // A peer that cannot be read is left out, as the watcher leaves it out of its look.
        const peerInput: GatheredInput | null = await gatherInput(sources, peer, incidents, now).catch(() => null);
        if (peerInput) members.push({ id: peer.sprinklerId, name: peer.name, input: peerInput });
      }
    }
    const decision = decideNext({ ...input, pump: pumpPeersOf(members)(machine.sprinklerId) });
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
