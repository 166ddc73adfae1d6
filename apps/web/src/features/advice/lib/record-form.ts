import {
  type FarmRecord,
  type FarmRecordBody,
  type FarmRecordKind,
  MAX_RECORD_MM,
  type RecordArea,
  type ValidationIssue,
} from '@pivot/contracts';
import { parseDecimal } from '@/lib/decimal';

/** The record form's fields as typed: numbers as text, the area as one choice of the list. */
export type RecordForm = {
  kind: FarmRecordKind;
  date: string;
  /** `machine`, `zone:<name>` or `sector:<name>`. */
  area: string;
  mm: string;
  probe: string;
  moisture: string;
};
export type RecordField = Exclude<keyof RecordForm, 'kind'>;
/** Each field's problem as a key of `advice.records.form` or a server's message. */
export type RecordFormErrors = Partial<Record<RecordField, string>>;

export const WHOLE_MACHINE = 'machine';

export function areaChoice(area: RecordArea): string {
  return area.kind === 'machine' ? WHOLE_MACHINE : `${area.kind}:${area.name}`;
}

function areaOfChoice(choice: string): RecordArea {
  if (choice.startsWith('zone:')) return { kind: 'zone', name: choice.slice('zone:'.length) };
  if (choice.startsWith('sector:')) return { kind: 'sector', name: choice.slice('sector:'.length) };
  return { kind: 'machine' };
}

const tidy = (value: number, mark: '.' | ',') => String(Math.round(value * 1000) / 1000).replace('.', mark);

export function emptyRecordForm(date: string): RecordForm {
  return { kind: 'rain_gauge', date, area: WHOLE_MACHINE, mm: '', probe: '', moisture: '' };
}

export function recordToForm(record: FarmRecord, mark: '.' | ','): RecordForm {
  if (record.kind === 'probe') {
    return {
      ...emptyRecordForm(record.date),
      kind: 'probe',
      probe: record.probe,
      moisture: tidy(record.moisture, mark),
    };
  }
  return {
    ...emptyRecordForm(record.date),
    kind: record.kind,
    area: areaChoice(record.area),
    mm: tidy(record.mm, mark),
  };
}

/** The body to send, or each field's problem (keys of `advice.records.form`). */
export function formToRecord(
  form: RecordForm,
): { ok: true; body: FarmRecordBody } | { ok: false; errors: RecordFormErrors } {
  if (!form.date) return { ok: false, errors: { date: 'dateRequired' } };
  if (form.kind === 'probe') {
    const moisture = parseDecimal(form.moisture);
    const errors: RecordFormErrors = {};
    if (!form.probe) errors.probe = 'probeRequired';
    if (moisture === null || moisture < 0 || moisture > 100) errors.moisture = 'moistureInvalid';
    if (Object.keys(errors).length > 0 || moisture === null) return { ok: false, errors };
    return { ok: true, body: { kind: 'probe', date: form.date, probe: form.probe, moisture } };
  }
  const mm = parseDecimal(form.mm);
  if (mm === null || mm < 0 || mm > MAX_RECORD_MM) return { ok: false, errors: { mm: 'mmInvalid' } };
  return { ok: true, body: { kind: form.kind, date: form.date, area: areaOfChoice(form.area), mm } };
}

const FIELDS: readonly RecordField[] = ['date', 'area', 'mm', 'probe', 'moisture'];

/**
 * The server's refusal on the form's fields (`body.area.name` is the area's, `body.mm` the
 * water's; one without a path, the date's): `message` gives each issue's text, so that a coded
 * refusal reads in the page's language.
 */
export function recordServerErrors(
  issues: readonly ValidationIssue[],
  message: (issue: ValidationIssue) => string,
): RecordFormErrors {
  const errors: RecordFormErrors = {};
  for (const issue of issues) {
    const field = issue.path.replace(/^body\.?/, '').split('.')[0] ?? '';
    errors[FIELDS.find((name) => name === field) ?? 'date'] = message(issue);
  }
  return errors;
}
