import type { ProgramFromAdvice } from '@pivot/contracts';
import type { SignedInUser } from '../../http/request-context';
import { startOfLocalDay } from '../../time/local-day';
import type { SprinklersService } from '../sprinklers';
import { type ApplicationDepthService, hoursPerCircleFromFlow } from '../application-depth';
import type { WaterBalanceService } from '../water-balance';
import { safeProgramFromAdvice } from './program-from-advice';

export type ProgramFromAdviceServiceDeps = {
  sprinklers: Pick<SprinklersService, 'accessible' | 'detail'>;
  waterBalance: Pick<WaterBalanceService, 'balance'>;
  applicationDepth: Pick<ApplicationDepthService, 'pace'>;
  timeZone: string;
  /** `PROGRAM_FROM_ADVICE_MARGIN_HOURS`. */
  marginHours: number;
  clock?: () => number;
};

/**
 * The program from the advice (docs/advice.md, "A program from the advice"), computed here so
 * that the page shows and stores what the server decided. Any user who sees the machine reads it;
 * storing and sending it need control, as for every program.
 */
export class ProgramFromAdviceService {
  constructor(private readonly deps: ProgramFromAdviceServiceDeps) {}

  async programFor(actor: SignedInUser, sprinklerId: number): Promise<ProgramFromAdvice> {
    const { sprinklers, waterBalance, applicationDepth, timeZone, marginHours } = this.deps;
    const row = await sprinklers.accessible(actor, sprinklerId);
    const [detail, balance, pace] = await Promise.all([
      sprinklers.detail(actor, sprinklerId),
      waterBalance.balance(actor, sprinklerId, {}),
      applicationDepth.pace(row),
    ]);
    const none = { date: balance.date, revolutionHours: null, marginHours, sectors: [], programData: null };
    if (balance.reason) return { ...none, reason: balance.reason };
    const program = detail.currentProgramData;
    if (program === null) return { ...none, reason: 'no_program' };
    const depthAtFullSpeed = pace.depthAtFullSpeed;
    const hoursPerCircle =
      pace.hoursPerCircle ??
      (depthAtFullSpeed === null ? null : hoursPerCircleFromFlow(depthAtFullSpeed, row.armLength, detail.flow ?? 0));
    if (depthAtFullSpeed === null || hoursPerCircle === null) return { ...none, reason: 'pace_unknown' };
    const now = this.deps.clock?.() ?? Date.now();
    const safe = safeProgramFromAdvice({
      program,
      pivot: { centre: { lat: Number(row.lat), lng: Number(row.lng) }, armLength: row.armLength },
      // A machine at rest goes front when started, unless its user says otherwise.
      arm: { angle: detail.angle ?? 0, direction: detail.status === 'back' ? 'back' : 'front' },
      pace: { depthAtFullSpeed, hoursPerCircle },
      advice: balance.sectors,
      hoursIntoToday: (now - startOfLocalDay(timeZone, new Date(now)).getTime()) / 3_600_000,
      marginHours,
      balanceDate: balance.date,
    });
    return {
      date: balance.date,
      reason: safe.programData === null ? 'nothing_due' : null,
      revolutionHours: Math.round(safe.revolutionHours * 10) / 10,
      marginHours,
      sectors: safe.sectors,
      programData: safe.programData,
    };
  }
}
