import { FARM_RECORD_KINDS, type FarmRecord, type FarmRecordBody } from '@pivot/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type RecordField,
  type RecordForm,
  type RecordFormErrors,
  WHOLE_MACHINE,
  emptyRecordForm,
  formToRecord,
  recordToForm,
} from '../lib/record-form';
import { DateField } from '@/ui/date-picker/date-field';
import { FormDialog } from '@/ui/form-dialog';
import { SelectField } from '@/ui/form/select-field';
import { TextField } from '@/ui/form/text-field';
import { useOfflineReason } from '@/lib/use-offline-reason';

export type RecordFormDialogProps = {
  /** The record edited; null adds one. */
  record: FarmRecord | null;
  /** dd.mm.yyyy proposed for a new record: today. */
  today: string;
  /** What the balance names: its crop zones and the loaded program's sectors, and the probes near the machine. */
  zones: readonly string[];
  sectors: readonly string[];
  probes: readonly string[];
  /** Stores the record; answers the problems on the fields, or null once stored. */
  onSave: (body: FarmRecordBody) => Promise<RecordFormErrors | null>;
  onClose: () => void;
};

const FORM_KEYS = new Set(['dateRequired', 'mmInvalid', 'moistureInvalid', 'probeRequired']);

/** Adds or edits one of the farm's records: a rain gauge's reading, other water, a probe's reading. */
export function RecordFormDialog({ record, today, zones, sectors, probes, onSave, onClose }: RecordFormDialogProps) {
  const { t, i18n } = useTranslation();
  const offlineReason = useOfflineReason();
  const mark = i18n.language === 'pl' ? ',' : '.';
  const [form, setForm] = useState<RecordForm>(() => (record ? recordToForm(record, mark) : emptyRecordForm(today)));
  const [errors, setErrors] = useState<RecordFormErrors>({});
  const [pending, setPending] = useState(false);

  const set = (field: RecordField, value: string) => {
    setForm((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };
  const errorOf = (field: RecordField) => {
    const error = errors[field];
    if (!error) return undefined;
    return FORM_KEYS.has(error) ? t(`advice.records.form.${error}` as 'advice.records.form.mmInvalid') : error;
  };

  // A record's area or probe the balance no longer names stays a choice until changed.
  const areaChoices = [
    { value: WHOLE_MACHINE, label: t('advice.records.wholeMachine') },
    ...zones.map((name) => ({ value: `zone:${name}`, label: t('advice.records.zoneOption', { name }) })),
    ...sectors.map((name) => ({ value: `sector:${name}`, label: t('advice.records.sectorOption', { name }) })),
  ];
  if (!areaChoices.some((choice) => choice.value === form.area)) {
    areaChoices.push({ value: form.area, label: form.area.replace(/^(zone|sector):/, '') });
  }
  const probeNames = form.probe && !probes.includes(form.probe) ? [...probes, form.probe] : probes;

  const submit = async () => {
    const built = formToRecord(form);
    if (!built.ok) {
      setErrors(built.errors);
      return;
    }
    setPending(true);
    try {
      const problems = await onSave(built.body);
      if (problems) setErrors(problems);
    } finally {
      setPending(false);
    }
  };

  return (
    <FormDialog
      title={record ? t('advice.records.form.editTitle') : t('advice.records.form.addTitle')}
      description={t('advice.records.form.description')}
      submitLabel={t('advice.records.form.save')}
      pendingLabel={t('advice.records.form.saving')}
      pending={pending}
      submitDisabled={offlineReason !== undefined}
      submitTitle={offlineReason}
      onSubmit={submit}
      onClose={onClose}
    >
      <div className="grid gap-4">
        <SelectField
          label={t('advice.records.form.kind')}
          options={FARM_RECORD_KINDS.map((kind) => ({ value: kind, label: t(`advice.records.kinds.${kind}`) }))}
          value={form.kind}
          onChange={(event) => {
            const kind = FARM_RECORD_KINDS.find((candidate) => candidate === event.target.value) ?? 'rain_gauge';
            setForm((current) => ({ ...current, kind }));
            setErrors({});
          }}
          name="kind"
        />
        <DateField
          label={t('advice.records.form.date')}
          value={form.date}
          onChange={(value) => set('date', value)}
          error={errorOf('date')}
          name="date"
        />
        {form.kind === 'probe' ? (
          <>
            <SelectField
              label={t('advice.records.form.probe')}
              hint={probeNames.length === 0 ? t('advice.records.form.noProbes') : undefined}
              options={[{ value: '', label: '—' }, ...probeNames.map((name) => ({ value: name, label: name }))]}
              value={form.probe}
              onChange={(event) => set('probe', event.target.value)}
              error={errorOf('probe')}
              name="probe"
            />
            <TextField
              label={t('advice.records.form.moisture')}
              hint={t('advice.records.form.moistureHint')}
              value={form.moisture}
              onChange={(event) => set('moisture', event.target.value)}
              error={errorOf('moisture')}
              inputMode="decimal"
              name="moisture"
            />
          </>
        ) : (
          <>
            <SelectField
              label={t('advice.records.form.area')}
              options={areaChoices}
              value={form.area}
              onChange={(event) => set('area', event.target.value)}
              error={errorOf('area')}
              name="area"
            />
            <TextField
              label={t('advice.records.form.mm')}
              hint={t('advice.records.form.mmHint')}
              value={form.mm}
              onChange={(event) => set('mm', event.target.value)}
              error={errorOf('mm')}
              inputMode="decimal"
              name="mm"
            />
          </>
        )}
      </div>
    </FormDialog>
  );
}
