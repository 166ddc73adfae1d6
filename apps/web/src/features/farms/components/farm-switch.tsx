import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentFarm } from '@/lib/current-farm';
import { ToolbarSelect } from '@/ui/toolbar-select';
import { useSwitchableFarms } from '../api/get-switchable-farms';

/**
 * The choice of the farm the machines list and the activity log show, or all of them side by
 * side; shown to a person with more than one farm. A farm they have left is switched away from.
 */
export function FarmSwitch() {
  const { t } = useTranslation();
  const { data: farms } = useSwitchableFarms();
  const [farmId, switchTo] = useCurrentFarm();
  const gone = Array.isArray(farms) && farmId !== null && !farms.some((farm) => farm.id === farmId);
  useEffect(() => {
    if (gone) switchTo(null);
  }, [gone, switchTo]);
  if (!Array.isArray(farms) || (farms.length < 2 && farmId === null)) return null;
  return (
    <ToolbarSelect
      label={t('farmSwitch.label')}
      allLabel={t('farmSwitch.all')}
      options={farms.map((farm) => ({ value: String(farm.id), label: farm.name }))}
      value={farmId === null ? '' : String(farmId)}
      onChange={(value) => switchTo(value ? Number(value) : null)}
    />
  );
}
