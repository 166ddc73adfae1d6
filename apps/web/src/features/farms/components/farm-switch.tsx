import { useEffect, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentFarm } from '@/lib/current-farm';
import { useSwitchableFarms } from '../api/get-switchable-farms';

/**
 * The choice of the farm the machines list and the activity log show, or all of them side by
 * side; shown to a person with more than one farm. A farm they have left is switched away from.
 */
export function FarmSwitch() {
  const { t } = useTranslation();
  const id = useId();
  const { data: farms } = useSwitchableFarms();
  const [farmId, switchTo] = useCurrentFarm();
  const gone = Array.isArray(farms) && farmId !== null && !farms.some((farm) => farm.id === farmId);
  useEffect(() => {
    if (gone) switchTo(null);
  }, [gone, switchTo]);
  if (!Array.isArray(farms) || (farms.length < 2 && farmId === null)) return null;
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <label htmlFor={id} className="font-medium text-ink-muted">
        {t('farmSwitch.label')}
      </label>
      <select
        id={id}
        value={farmId ?? ''}
        onChange={(event) => switchTo(event.target.value ? Number(event.target.value) : null)}
        className="h-10 max-w-full min-w-0 rounded-md border border-line bg-surface px-2 text-ink"
      >
        <option value="">{t('farmSwitch.all')}</option>
        {farms.map((farm) => (
          <option key={farm.id} value={farm.id}>
            {farm.name}
          </option>
        ))}
      </select>
    </div>
  );
}
