import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fleetFiles, machineFiles, useDownloadDataFile } from '../api/download-data-file';
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
 * The user's data, out, for the chosen days: on a machine's page its reports as a CSV file for a
 * spreadsheet and the water it applied as an as-applied map (GeoJSON or a zipped shapefile) for
 * a GIS or a farm-management system; without a machine, the map of every machine the user sees.
 * Reports lie in the past: days after today cannot be picked.
 */
export function DataDownloadCard({ sprinklerId }: { sprinklerId?: number }) {
  const { t } = useTranslation();
  const titleId = useId();
  const files = sprinklerId === undefined ? fleetFiles() : machineFiles(sprinklerId);
  const [range, setRange] = useState(() =>
    formatRange(shortcutRange('last7Days', new Date()), FIELD_FORMAT, RANGE_SEPARATOR),
  );
  const { download, preparing } = useDownloadDataFile();
  const parsed = parseRange(range, FIELD_FORMAT, RANGE_SEPARATOR);
  const tomorrow = addDays(startOfDay(new Date()), 1);

  return (
    <Card aria-labelledby={titleId} className="flex flex-col gap-3">
      <h2 id={titleId} className="text-lg font-semibold">
        {sprinklerId === undefined ? t('dataDownload.fleetTitle') : t('dataDownload.title')}
      </h2>
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="tabular-nums">{range}</span>
        <DatePicker
          mode="range"
          value={range}
          onChange={setRange}
          label={t('dataDownload.pickRange')}
          format={FIELD_FORMAT}
          separator={RANGE_SEPARATOR}
          isDisabled={(date) => date >= tomorrow}
        />
      </div>
      <p className="text-sm text-ink-muted">
        {sprinklerId === undefined ? t('dataDownload.fleetHint') : t('dataDownload.asAppliedHint')}
      </p>
      <div className="flex flex-wrap gap-2">
        {files.map((file) => (
          <Button
            key={file.kind}
            variant="secondary"
            disabled={!parsed || preparing !== null}
            onClick={() =>
              parsed &&
              void download(file, {
                start: formatDate(parsed.start, FIELD_FORMAT),
                stop: formatDate(parsed.end, FIELD_FORMAT),
              })
            }
          >
            {preparing === file.kind ? t('dataDownload.preparing') : t(`dataDownload.${file.kind}`)}
          </Button>
        ))}
      </div>
    </Card>
  );
}
