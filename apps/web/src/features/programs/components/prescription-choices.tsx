import {
  PRESCRIPTION_ALIKE_MM,
  PRESCRIPTION_UNITS,
  type PrescriptionPreview,
  PrescriptionUnitSchema,
} from '@pivot/contracts';
import { useTranslation } from 'react-i18next';
import { SelectField } from '@/ui/form/select-field';
import { useRateFormat } from '../hooks/use-rate-format';
import type { PrescriptionChoice } from '../hooks/use-prescription-import';

export type PrescriptionChoicesProps = {
  /** The answer shown: its column, unit and likeness are what the selects show. */
  preview: PrescriptionPreview;
  onChange: (choice: PrescriptionChoice) => void;
  disabled: boolean;
};

/**
 * How the prescription is read: which of its numeric columns is the rate, in which unit, and how
 * alike neighbouring degrees' rates must be to share a sector. The selects show what the server
 * used, so a refused change leaves them as the preview under them is.
 */
export function PrescriptionChoices({ preview, onChange, disabled }: PrescriptionChoicesProps) {
  const { t } = useTranslation();
  const formatRate = useRateFormat();
  return (
    <fieldset disabled={disabled} className="flex min-w-0 flex-col gap-3">
      <legend className="sr-only">{t('programs.prescription.choicesLegend')}</legend>
      <SelectField
        label={t('programs.prescription.column')}
        options={preview.columns.map((column) => ({ value: column, label: column }))}
        value={preview.column}
        onChange={(event) => onChange({ column: event.target.value })}
      />
      <SelectField
        label={t('programs.prescription.unit')}
        hint={t('programs.prescription.unitHint')}
        options={PRESCRIPTION_UNITS.map((unit) => ({ value: unit, label: t(`programs.prescription.units.${unit}`) }))}
        value={preview.unit}
        onChange={(event) => onChange({ unit: PrescriptionUnitSchema.parse(event.target.value) })}
      />
      <SelectField
        label={t('programs.prescription.alike')}
        hint={t('programs.prescription.alikeHint')}
        options={PRESCRIPTION_ALIKE_MM.map((mm) => ({ value: String(mm), label: formatRate(mm) }))}
        value={String(preview.alikeMm)}
        onChange={(event) => onChange({ alikeMm: Number(event.target.value) })}
      />
    </fieldset>
  );
}
