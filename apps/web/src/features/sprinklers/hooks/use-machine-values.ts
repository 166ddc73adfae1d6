import type { SprinklerStatus } from '@pivot/contracts';
import { useTranslation } from 'react-i18next';
import { useDateTimeFormat } from '@/i18n/use-date-time-format';
import { useLocale } from '@/i18n/use-locale';
import { numberFormat } from '@/i18n/number-format';

const DASH = '—';

/**
 * The machine's measured values as people read them, in the user's language: units after the
 * number, a dash for anything the machine has not reported (docs/product.md#screens: status none is a dash).
 */
export function useMachineValues() {
  const { t } = useTranslation();
  const locale = useLocale();
  const number = (digits: number) => numberFormat(locale, { maximumFractionDigits: digits });
  const [whole, tenths, hundredths] = [number(0), number(1), number(2)];
  const withUnit = (format: Intl.NumberFormat, unit: string) => (value: number | null) =>
    value === null ? DASH : `${format.format(value)} ${unit}`;
  const dates = useDateTimeFormat();

  return {
    status: (status: SprinklerStatus | null) => (status ? t(`sprinklers.status.${status}`) : DASH),
    distance: withUnit(whole, t('sprinklers.units.metres')),
    angle: (angle: number | null) => (angle === null ? DASH : `${tenths.format(angle)}°`),
    speed: withUnit(whole, '%'),
    pressure: withUnit(hundredths, t('sprinklers.units.bar')),
    flow: withUnit(tenths, t('sprinklers.units.flow')),
    millimetres: withUnit(tenths, t('sprinklers.units.millimetres')),
    date: (timestamp: number | null) => (timestamp === null ? DASH : dates.dateTime(timestamp)),
    /** To the second: when a report was, exactly. */
    exactDate: dates.dateTimeToSecond,
    time: dates.time,
    text: (text: string | null) => text ?? DASH,
  };
}
