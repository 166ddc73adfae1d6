import type { Program, SprinklerDetail } from '@pivot/contracts';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { createStore, useStore } from '@/config/create-store';
import { readAgain } from '@/lib/query-client';
import { sprinklerKeys } from '@/lib/sprinkler-detail-cache';
import { showToast } from '@/ui/toast/toast-store';
import { sendProgram } from '../api/send-program';

/**
 * docs/product.md#states: a sent program is uploaded (the send call), then processed by the machine, and
 * appears as the machine's current program shortly after. The machine screen's live events
 * update the detail when it does; the detail is also fetched again every few seconds meanwhile,
 * in case the live connection is down.
 */
export type SendPhase = 'uploading' | 'processing';

type Sending = {
  programId: number;
  programName: string;
  phase: SendPhase;
  /** The upload date of the machine's program before this send: a newer one means it arrived. */
  since: number | null;
  startedAt: number;
};

/** By machine: kept outside the screen, so that leaving for a sector and coming back keeps it. */
const sendingStore = createStore<ReadonlyMap<number, Sending>>(new Map());

function setSending(sprinklerId: number, sending: Sending | null): void {
  const next = new Map(sendingStore.get());
  if (sending) next.set(sprinklerId, sending);
  else next.delete(sprinklerId);
  sendingStore.set(next);
}

export const REFETCH_WHILE_PROCESSING_MS = 3000;
/** After this long without the machine reporting the program, the screen stops waiting. */
export const PROCESSING_GIVE_UP_MS = 120_000;

/** Whether the detail shows the sent program as the machine's current one, uploaded after the send began. */
export function hasArrived(
  sprinkler: Pick<SprinklerDetail, 'currentProgramData' | 'currentProgramTimestamp'>,
  sending: Sending,
) {
  return (
    sprinkler.currentProgramTimestamp !== null &&
    sprinkler.currentProgramTimestamp !== sending.since &&
    sprinkler.currentProgramData?.name === sending.programName
  );
}

export function useProgramSending(sprinkler: SprinklerDetail) {
  const { t } = useTranslation();
  const sending = useStore(sendingStore).get(sprinkler.id) ?? null;
  const arrived = sending?.phase === 'processing' && hasArrived(sprinkler, sending);

  useEffect(() => {
    if (!sending || sending.phase !== 'processing') return;
    if (arrived) {
      setSending(sprinkler.id, null);
      showToast({ variant: 'success', title: t('programs.send.active', { name: sending.programName }) });
      return;
    }
    const refetch = setInterval(
      () => void readAgain({ queryKey: sprinklerKeys.detail(sprinkler.id) }),
      REFETCH_WHILE_PROCESSING_MS,
    );
    const giveUp = setTimeout(
      () => {
        setSending(sprinkler.id, null);
        showToast({
          variant: 'warning',
          title: t('programs.send.notConfirmedTitle'),
          message: t('programs.send.notConfirmedMessage', { name: sending.programName }),
        });
      },
      Math.max(0, sending.startedAt + PROCESSING_GIVE_UP_MS - Date.now()),
    );
    return () => {
      clearInterval(refetch);
      clearTimeout(giveUp);
    };
  }, [sending, arrived, sprinkler.id, t]);

  const send = async (program: Program): Promise<boolean> => {
    const started: Sending = {
      programId: program.id,
      programName: program.name,
      phase: 'uploading',
      since: sprinkler.currentProgramTimestamp,
      startedAt: Date.now(),
    };
    setSending(sprinkler.id, started);
    const detail = await sendProgram(sprinkler.id, program.id);
    if (!detail) {
      setSending(sprinkler.id, null);
      return false;
    }
    setSending(sprinkler.id, { ...started, phase: 'processing' });
    showToast({
      variant: 'information',
      title: t('programs.send.uploadedTitle', { name: program.name }),
      message: t('programs.send.uploadedMessage'),
    });
    return true;
  };

  /** The phase of one program's send, or null when it is not being sent. */
  const phaseOf = (programId: number): SendPhase | null =>
    sending?.programId === programId && !arrived ? sending.phase : null;

  return { sending: sending !== null && !arrived, phaseOf, send };
}
