import { useTranslation } from 'react-i18next';
import { useLocale } from '@/i18n/use-locale';
import { numberFormat } from '@/i18n/number-format';

/** A rate as the user's language writes it: "12,5 mm" in Polish, "12.5 mm" in English. */
export function useRateFormat(): (rate: number) => string {
  const { t } = useTranslation();
  const locale = useLocale();
  const number = numberFormat(locale, { maximumFractionDigits: 2 });
  return (rate) => t('programs.rate', { rate: number.format(rate) });
}
