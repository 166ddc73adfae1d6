import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Card } from '@/ui/card';
import { ShieldIcon } from '@/ui/other-icons';
import { showToast } from '@/ui/toast/toast-store';
import { useRequireSecondFactor } from '../api/require-second-factor';

/**
 * Whether the farm requires two-step sign-in of every member: a switch for its owners and the
 * administrator, sent at once; its managers see the state without changing it.
 */
export function SecondFactorSetting({
  farm,
  editable,
}: {
  farm: { id: number; name: string; requireSecondFactor: boolean };
  editable: boolean;
}) {
  const { t } = useTranslation();
  const id = useId();
  const change = useRequireSecondFactor();
  // What was picked, shown until the farm has been read again with it (or the call failed).
  const [asked, setAsked] = useState<boolean | null>(null);
  const required = asked ?? farm.requireSecondFactor;

  const pick = async (value: boolean) => {
    setAsked(value);
    const changed = await change.run(farm.id, { required: value });
    setAsked(null);
    if (!changed) return;
    showToast({
      variant: 'success',
      title: t(value ? 'farms.secondFactor.required' : 'farms.secondFactor.optional', { farm: farm.name }),
    });
  };

  return (
    <Card aria-labelledby={`${id}-title`}>
      <div className="flex items-start gap-3">
        <ShieldIcon className="mt-0.5 size-6 shrink-0 text-water" />
        <div className="flex min-w-0 flex-1 flex-col gap-3">
          <h2 id={`${id}-title`} className="text-lg font-semibold">
            {t('farms.secondFactor.title')}
          </h2>
          <div className="flex items-center justify-between gap-4">
            <label htmlFor={id} className="font-medium">
              {t('farms.secondFactor.label')}
            </label>
            <span className="flex shrink-0 items-center gap-2">
              <span
                aria-hidden="true"
                className={`text-sm ${required ? 'font-semibold text-water' : 'text-ink-muted'}`}
              >
                {required ? t('farms.secondFactor.on') : t('farms.secondFactor.off')}
              </span>
              <input
                id={id}
                type="checkbox"
                role="switch"
                checked={required}
                disabled={!editable || change.isPending}
                aria-describedby={`${id}-hint`}
                onChange={(event) => void pick(event.target.checked)}
                className="relative h-6 w-11 shrink-0 cursor-pointer appearance-none rounded-full bg-line transition-colors before:absolute before:top-0.5 before:left-0.5 before:size-5 before:rounded-full before:bg-surface before:shadow before:transition-transform checked:bg-water checked:before:translate-x-5 disabled:cursor-not-allowed disabled:opacity-60"
              />
            </span>
          </div>
          <p id={`${id}-hint`} className="text-sm text-ink-muted">
            {t('farms.secondFactor.description')}
            {!editable && ` ${t('farms.secondFactor.ownersOnly')}`}
          </p>
        </div>
      </div>
    </Card>
  );
}
