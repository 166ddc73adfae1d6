import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useMachines } from '../api/get-machines';

export type MutedMachinesFieldProps = {
  value: readonly number[];
  onChange: (value: number[]) => void;
  disabled?: boolean;
};

/** The user's machines, each with a switch that mutes its alerts. */
export function MutedMachinesField({ value, onChange, disabled }: MutedMachinesFieldProps) {
  const { t } = useTranslation();
  const id = useId();
  const machines = useMachines();
  const toggle = (machineId: number, muted: boolean) =>
    onChange(muted ? [...value, machineId] : value.filter((other) => other !== machineId));

  let content;
  if (machines.isPending) content = <p className="text-sm text-ink-muted">{t('table.loading')}</p>;
  else if (!machines.data) content = <p className="text-sm text-error">{t('alerts.muted.loadFailed')}</p>;
  else if (machines.data.length === 0) content = <p className="text-sm text-ink-muted">{t('alerts.muted.none')}</p>;
  else {
    content = (
      <ul className="flex flex-col divide-y divide-line rounded-lg border border-line">
        {machines.data.map((machine) => {
          const muted = value.includes(machine.id);
          const switchId = `${id}-${machine.id}`;
          return (
            <li key={machine.id} className="flex items-center justify-between gap-3 px-3 py-2">
              <label htmlFor={switchId} className="flex min-w-0 flex-col">
                <span className="sr-only">{t('alerts.muted.toggle', { name: machine.name })}</span>
                <span aria-hidden="true" className="truncate text-sm font-medium">
                  {machine.name}
                </span>
                <span aria-hidden="true" className="truncate text-xs text-ink-muted">
                  {machine.internalId}
                </span>
              </label>
              <span className="flex shrink-0 items-center gap-2">
                <span
                  aria-hidden="true"
                  className={`text-sm ${muted ? 'font-semibold text-warning' : 'text-ink-muted'}`}
                >
                  {muted ? t('alerts.muted.on') : t('alerts.muted.off')}
                </span>
                <input
                  id={switchId}
                  type="checkbox"
                  role="switch"
                  checked={muted}
                  onChange={(event) => toggle(machine.id, event.target.checked)}
                  className="relative h-6 w-11 shrink-0 cursor-pointer appearance-none rounded-full bg-line transition-colors before:absolute before:top-0.5 before:left-0.5 before:size-5 before:rounded-full before:bg-surface before:shadow before:transition-transform checked:bg-warning checked:before:translate-x-5 disabled:cursor-not-allowed disabled:opacity-60"
                />
              </span>
            </li>
          );
        })}
      </ul>
    );
  }

  return (
    <fieldset className="flex min-w-0 flex-col gap-3" disabled={disabled} aria-describedby={`${id}-hint`}>
      <legend className="mb-1 font-semibold">{t('alerts.muted.legend')}</legend>
      <p id={`${id}-hint`} className="text-sm text-ink-muted">
        {t('alerts.muted.hint')}
      </p>
      {content}
    </fieldset>
  );
}
