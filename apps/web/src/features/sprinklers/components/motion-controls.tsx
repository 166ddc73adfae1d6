import type { Motion } from '@pivot/contracts';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loadCataloguePart } from '@/i18n/i18n';
import { useOfflineReason } from '@/lib/use-offline-reason';
import { Button } from '@/ui/button';
import { Card } from '@/ui/card';
import { confirmDialog } from '@/ui/dialog/dialogs';
import { RotateClockwiseIcon, RotateCounterClockwiseIcon, StopIcon } from '@/ui/icons';
import { moveSprinkler } from '../api/move-sprinkler';
import { type MachinePresence, useMachineOnline } from '../hooks/use-machine-online';
import { useMachineValues } from '../hooks/use-machine-values';

type Outcome = { motion: Motion; confirmed: boolean; at: number };

const MOTIONS: readonly { motion: Motion; icon: ReactNode; variant: 'primary' | 'secondary' | 'danger' }[] = [
  { motion: 'front', icon: <RotateClockwiseIcon className="size-5 shrink-0" />, variant: 'primary' },
  { motion: 'back', icon: <RotateCounterClockwiseIcon className="size-5 shrink-0" />, variant: 'secondary' },
  { motion: 'stop', icon: <StopIcon className="size-5 shrink-0" />, variant: 'danger' },
];

/**
 * Front, back and stop, each asked first: a machine that moves waters a field. The result stays
 * under the buttons, the machine's confirmation or the reason it is missing, so the user knows
 * what the machine really does. While the machine is offline no command can reach it: the buttons
 * wait for it, saying why, instead of offering what the server can only refuse. While the app's
 * own connection is lost they wait too: nothing is kept to be sent later.
 */
export function MotionControls({
  sprinklerId,
  name,
  machine,
}: {
  sprinklerId: number;
  name: string;
  machine: MachinePresence;
}) {
  const { t } = useTranslation();
  const online = useMachineOnline(machine);
  const offlineReason = useOfflineReason();
  const values = useMachineValues();
  const [pending, setPending] = useState<Motion | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const send = async (motion: Motion) => {
    try {
      // The question's texts come with the page's later texts (the catalogue's `machineCards`),
      // fetched after its first paint: a press before they came waits for them.
      await loadCataloguePart('machineCards');
      const confirmed = await confirmDialog({
        title: t(`motionConfirm.${motion}.title`),
        message: t(`motionConfirm.${motion}.message`, { name }),
        left: t('sprinklers.motion.cancel'),
        right: t(`motionConfirm.${motion}.action`),
      });
      if (!confirmed) return;
      setPending(motion);
      const result = await moveSprinkler(sprinklerId, motion);
      setOutcome({ motion, confirmed: result.ok, at: result.answeredAt });
    } finally {
      setPending(null);
    }
  };

  return (
    <Card aria-labelledby="motion-title" className="flex flex-col gap-4">
      <h2 id="motion-title" className="text-lg font-semibold">
        {t('sprinklers.motion.title')}
      </h2>
      {/* Large, well-separated targets: this is pressed with a thumb in the field. */}
      <div className="grid grid-cols-1 gap-2 sm:grid-cols-3 lg:grid-cols-1">
        {MOTIONS.map(({ motion, icon, variant }) => (
          <Button
            key={motion}
            variant={variant}
            icon={icon}
            disabled={pending !== null || !online || offlineReason !== undefined}
            title={offlineReason}
            onClick={() => void send(motion)}
            className="h-12"
          >
            {t(`sprinklers.motion.${motion}`)}
          </Button>
        ))}
      </div>
      <p aria-live="polite" className="min-h-5 text-sm">
        {offlineReason && !pending && <span className="font-medium text-ink-muted">{offlineReason}</span>}
        {!offlineReason && !online && !pending && (
          <span className="font-medium text-ink-muted">{t('sprinklers.motion.offline')}</span>
        )}
        {pending && (
          <span className="text-ink-muted">
            {t('sprinklers.motion.waiting', { motion: t(`sprinklers.motion.${pending}`) })}
          </span>
        )}
        {online && !offlineReason && !pending && outcome && (
          <span className={outcome.confirmed ? 'font-medium text-success' : 'font-semibold text-error'}>
            {t(outcome.confirmed ? 'sprinklers.motion.confirmed' : 'sprinklers.motion.notConfirmed', {
              motion: t(`sprinklers.motion.${outcome.motion}`),
              time: values.time(outcome.at),
            })}
          </span>
        )}
      </p>
    </Card>
  );
}
