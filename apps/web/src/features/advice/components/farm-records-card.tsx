import type { FarmRecord, FarmRecordBody, SprinklerDetail } from '@pivot/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFarmRecords } from '../api/get-farm-records';
import { useWaterBalance } from '../api/get-water-balance';
import { useRemoveFarmRecord } from '../api/remove-farm-record';
import { useSaveFarmRecord } from '../api/save-farm-record';
import { recordServerErrors } from '../lib/record-form';
import { RecordFormDialog } from './record-form-dialog';
import { useDottedDay } from '@/i18n/use-dotted-day';
import { numberFormat } from '@/i18n/number-format';
import { Button } from '@/ui/button';
import { Card } from '@/ui/card';
import { FIELD_FORMAT, formatDate } from '@/ui/date-picker/dates';
import { confirmDialog } from '@/ui/dialog/dialogs';
import { PlusIcon } from '@/ui/other-icons';
import { showToast } from '@/ui/toast/toast-store';
import { useOfflineReason } from '@/lib/use-offline-reason';

type Editing = { record: FarmRecord | null } | null;

/**
 * The farm's own records of the machine (docs/advice.md, "The farm's own records"): rain gauge
 * readings, water from other sources, readings typed in for a wrong probe. Everyone the machine
 * is granted to sees them; a user with control adds, edits and removes them, and the advice is
 * asked again at once.
 */
export function FarmRecordsCard({ sprinkler, now = new Date() }: { sprinkler: SprinklerDetail; now?: Date }) {
  const { t, i18n } = useTranslation();
  const offlineReason = useOfflineReason();
  const dottedDay = useDottedDay();
  const { data: records, isPending } = useFarmRecords(sprinkler.id);
  const { data: balance } = useWaterBalance(sprinkler.id);
  const save = useSaveFarmRecord();
  const remove = useRemoveFarmRecord();
  const [editing, setEditing] = useState<Editing>(null);
  const [removing, setRemoving] = useState<number | null>(null);
  const controls = sprinkler.level === 'control';
  const mm = numberFormat(i18n.language, { maximumFractionDigits: 1 });

  const describe = (record: FarmRecord) => {
    if (record.kind === 'probe') {
      return `${record.probe} · ${t('advice.records.moisture', { value: mm.format(record.moisture) })}`;
    }
    const area =
      record.area.kind === 'machine'
        ? t('advice.records.wholeMachine')
        : t(record.area.kind === 'zone' ? 'advice.records.zoneOption' : 'advice.records.sectorOption', {
            name: record.area.name,
          });
    return `${t('advice.records.water', { value: mm.format(record.mm) })} · ${area}`;
  };

  const store = async (body: FarmRecordBody) => {
    const result = await save.run(sprinkler.id, editing?.record?.id ?? null, body);
    if (!result) return {};
    if (!result.ok) {
      return recordServerErrors(result.issues, (issue) =>
        result.code === 'validation_error' ? issue.message : t(`errorCodes.${result.code}.message`),
      );
    }
    showToast({ variant: 'success', title: t('advice.records.saved') });
    setEditing(null);
    return null;
  };

  const removeRecord = async (record: FarmRecord) => {
    const date = dottedDay(record.date);
    const confirmed = await confirmDialog({
      title: t('advice.records.removeTitle', { date }),
      message: t('advice.records.removeMessage'),
      right: t('advice.records.remove'),
      danger: true,
    });
    if (!confirmed) return;
    setRemoving(record.id);
    try {
      if (await remove.run(sprinkler.id, record.id))
        showToast({ variant: 'success', title: t('advice.records.removed') });
    } finally {
      setRemoving(null);
    }
  };

  return (
    <Card aria-labelledby="farm-records-title" className="flex flex-col gap-3">
      <h2 id="farm-records-title" className="text-lg font-semibold">
        {t('advice.records.title')}
      </h2>
      <p className="text-sm text-ink-muted">{t('advice.records.hint')}</p>
      {isPending ? (
        <p className="text-sm text-ink-muted">{t('advice.records.loading')}</p>
      ) : !records || records.length === 0 ? (
        <p className="text-sm text-ink-muted">{t('advice.records.none')}</p>
      ) : (
        <ul className="flex flex-col divide-y divide-line" aria-label={t('advice.records.title')}>
          {records.map((record) => {
            const date = dottedDay(record.date);
            return (
              <li key={record.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <div className="flex min-w-0 flex-col">
                  <span className="font-medium">
                    {date} · {t(`advice.records.kinds.${record.kind}`)}
                  </span>
                  <span className="text-sm text-ink-muted">{describe(record)}</span>
                </div>
                {controls && (
                  <div className="flex gap-2">
                    <Button
                      variant="secondary"
                      aria-label={t('advice.records.editLabel', { date })}
                      disabled={offlineReason !== undefined}
                      title={offlineReason}
                      onClick={() => setEditing({ record })}
                    >
                      {t('advice.records.edit')}
                    </Button>
                    <Button
                      variant="ghost"
                      aria-label={t('advice.records.removeLabel', { date })}
                      disabled={offlineReason !== undefined || removing === record.id}
                      title={offlineReason}
                      onClick={() => void removeRecord(record)}
                    >
                      {t('advice.records.remove')}
                    </Button>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {controls && (
        <div>
          <Button
            variant="secondary"
            icon={<PlusIcon className="size-4" />}
            disabled={offlineReason !== undefined}
            title={offlineReason}
            onClick={() => setEditing({ record: null })}
          >
            {t('advice.records.add')}
          </Button>
        </div>
      )}
      {editing && (
        <RecordFormDialog
          record={editing.record}
          today={formatDate(now, FIELD_FORMAT)}
          zones={balance ? balance.zones.map((zone) => zone.name) : []}
          sectors={balance ? balance.sectors.map((sector) => sector.name) : []}
          probes={balance ? balance.probes.map((probe) => probe.id) : []}
          onClose={() => setEditing(null)}
          onSave={store}
        />
      )}
    </Card>
  );
}
