import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDownloadReportsCsv } from '../api/download-reports-csv';
import { Button } from '@/ui/button';
import { Card } from '@/ui/card';
import { DatePicker } from '@/ui/date-picker/date-picker';
import {
  FIELD_FORMAT,
  RANGE_SEPARATOR,
  addDays,
  formatDate,
  formatRange,
  parseRange,
  shortcutRange,
  startOfDay,
} from '@/ui/date-picker/dates';

/**
 * The machine's reports, out: every report of the chosen days as a CSV file, for a spreadsheet
 * or another program. Reports lie in the past: days after today cannot be picked.
 */
export function ReportsDownloadCard({ sprinklerId }: { sprinklerId: number }) {
  const { t } = useTranslation();
  const [range, setRange] = useState(() =>
    formatRange(shortcutRange('last7Days', new Date()), FIELD_FORMAT, RANGE_SEPARATOR),
  );
  const download = useDownloadReportsCsv(sprinklerId);
  const parsed = parseRange(range, FIELD_FORMAT, RANGE_SEPARATOR);
  const tomorrow = addDays(startOfDay(new Date()), 1);

  return (
    <Card aria-labelledby="reports-download-title" className="flex flex-col gap-3">
      <h2 id="reports-download-title" className="text-lg font-semibold">
        {t('reportsDownload.title')}
      </h2>
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="tabular-nums">{range}</span>
        <DatePicker
          mode="range"
          value={range}
          onChange={setRange}
          label={t('reportsDownload.pickRange')}
          format={FIELD_FORMAT}
          separator={RANGE_SEPARATOR}
          isDisabled={(date) => date >= tomorrow}
        />
      </div>
      <Button
        variant="secondary"
        disabled={!parsed || download.isPending}
        onClick={() =>
          parsed &&
          download.mutate({ start: formatDate(parsed.start, FIELD_FORMAT), stop: formatDate(parsed.end, FIELD_FORMAT) })
        }
      >
        {download.isPending ? t('reportsDownload.preparing') : t('reportsDownload.download')}
      </Button>
    </Card>
  );
}
