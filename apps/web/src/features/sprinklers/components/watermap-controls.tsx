import { memo } from 'react';
import type { WatermapResponse } from '@pivot/contracts';
import { useTranslation } from 'react-i18next';
import { DatePicker } from '@/ui/date-picker/date-picker';
import { FIELD_FORMAT, RANGE_SEPARATOR, addDays, startOfDay } from '@/ui/date-picker/dates';
import { useMachineValues } from '../hooks/use-machine-values';
import { WATER_CLASSES } from './map/watermap-scale';

export type WatermapControlsProps = {
  /** 'DD.MM.YYYY - DD.MM.YYYY' */
  range: string;
  onRangeChange: (range: string) => void;
  watermap: WatermapResponse | null;
  loading: boolean;
};

/**
 * The irrigation history's dates and its legend. History lies in the past: days after today
 * cannot be picked, and the shortcuts (last 7 days, this month…) are offered.
 */
export const WatermapControls = memo(function WatermapControls({
  range,
  onRangeChange,
  watermap,
  loading,
}: WatermapControlsProps) {
  const { t } = useTranslation();
  const values = useMachineValues();
  const tomorrow = addDays(startOfDay(new Date()), 1);
  const lowerBounds = [0, ...WATER_CLASSES.slice(0, -1).map((waterClass) => waterClass.upTo)];

  return (
    <div className="flex flex-col gap-3 rounded-lg bg-surface-muted p-3 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-semibold">{t('sprinklers.history.title')}</span>
        <span className="tabular-nums">{range}</span>
        <DatePicker
          mode="range"
          value={range}
          onChange={onRangeChange}
          label={t('sprinklers.history.pickRange')}
          format={FIELD_FORMAT}
          separator={RANGE_SEPARATOR}
          isDisabled={(date) => date >= tomorrow}
        />
        <span aria-live="polite" className="text-ink-muted">
          {loading
            ? t('sprinklers.history.loading')
            : watermap && watermap.data.length === 0
              ? t('sprinklers.history.empty')
              : null}
        </span>
      </div>
      <ul aria-label={t('sprinklers.history.legend')} className="flex flex-wrap gap-x-4 gap-y-1">
        {WATER_CLASSES.map((waterClass, index) => (
          <li key={waterClass.color} className="inline-flex items-center gap-1.5">
            <span className="size-3.5 rounded-sm border border-line" style={{ backgroundColor: waterClass.color }} />
            {Number.isFinite(waterClass.upTo)
              ? t('sprinklers.history.classRange', {
                  from: lowerBounds[index],
                  to: values.millimetres(waterClass.upTo),
                })
              : t('sprinklers.history.classAbove', { from: values.millimetres(lowerBounds[index] ?? 0) })}
          </li>
        ))}
      </ul>
    </div>
  );
});
