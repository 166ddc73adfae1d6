import { useTranslation } from 'react-i18next';
import { useRateFormat } from '../hooks/use-rate-format';
import { PRESCRIPTION_RAMP } from '../lib/prescription-scale';

export type PrescriptionLegendProps = {
  /** The prescription's lowest and highest rate on the map, mm. */
  min: number;
  max: number;
  /** The sectors' line and its casing, as the map draws them. */
  outline: { line: string; casing: string };
};

/** What the map's colours and lines mean: the prescription's rates from its lowest to its highest, and the sectors. */
export function PrescriptionLegend({ min, max, outline }: PrescriptionLegendProps) {
  const { t } = useTranslation();
  const formatRate = useRateFormat();
  const uniform = min === max;
  return (
    <div className="flex flex-wrap items-center gap-x-6 gap-y-2 text-xs">
      <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <span className="font-medium">{t('programs.prescription.legend.prescribed')}</span>
        {uniform ? (
          <span className="flex items-center gap-2 whitespace-nowrap tabular-nums">
            <span aria-hidden className="size-3 rounded-sm" style={{ backgroundColor: PRESCRIPTION_RAMP[2] }} />
            {formatRate(min)}
          </span>
        ) : (
          <span className="flex items-center gap-2 whitespace-nowrap tabular-nums">
            {formatRate(min)}
            <span
              aria-hidden
              className="h-3 w-24 rounded-sm"
              style={{ backgroundImage: `linear-gradient(to right, ${PRESCRIPTION_RAMP.join(', ')})` }}
            />
            {formatRate(max)}
          </span>
        )}
      </p>
      <p className="flex items-center gap-2">
        <svg aria-hidden width="24" height="12" viewBox="0 0 24 12">
          <path d="M2 6h20" stroke={outline.casing} strokeWidth="5" strokeLinecap="round" />
          <path d="M2 6h20" stroke={outline.line} strokeWidth="2" strokeLinecap="round" />
        </svg>
        <span>{t('programs.prescription.legend.sectors')}</span>
      </p>
    </div>
  );
}
