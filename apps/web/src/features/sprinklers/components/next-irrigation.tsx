import { useTranslation } from 'react-i18next';
import { useDottedDay } from '@/i18n/use-dotted-day';
import { FIELD_FORMAT, formatDate } from '@/ui/date-picker/dates';
import { useNextIrrigation } from '../api/get-next-irrigation';

/** dd.mm.yyyy → yyyy-mm-dd, which sorts as the days do. */
const sortable = (dotted: string) => dotted.split('.').reverse().join('-');

/**
 * A machine's next irrigation in the machines table: "today" (water is due; a copy kept past
 * midnight may name a day gone by), a date in the app's style, or "—" without a season running or
 * while none is due within it. Nothing while the answer is on its way, and "unknown" when it could
 * not be had: a dash then would say no water is due.
 */
export function NextIrrigation({ sprinklerId, now = new Date() }: { sprinklerId: number; now?: Date }) {
  const { t } = useTranslation();
  const { data, isPending } = useNextIrrigation();
  const dottedDay = useDottedDay();
  if (isPending) return null;
  if (!data) return <>{t('machineList.nextIrrigation.unknown')}</>;
  const date = data.get(sprinklerId) ?? null;
  if (date === null) return <>{t('machineList.nextIrrigation.none')}</>;
  return (
    <>
      {sortable(date) <= sortable(formatDate(now, FIELD_FORMAT))
        ? t('machineList.nextIrrigation.today')
        : dottedDay(date)}
    </>
  );
}
