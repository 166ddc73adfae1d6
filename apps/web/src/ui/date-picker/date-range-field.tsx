import { type InputHTMLAttributes, type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldFrame, type FieldError, describedBy, enterHandler, inputClasses } from '../form/field-frame';
import { DatePicker } from './date-picker';
import { FIELD_FORMAT, RANGE_SEPARATOR, isFieldDateDisabled } from './dates';

export type DateRangeFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange'> & {
  label: ReactNode;
  /** 'DD.MM.YYYY - DD.MM.YYYY', or '' for none. */
  value: string;
  onChange: (value: string) => void;
  hint?: ReactNode;
  error?: FieldError;
  onEnter?: () => void;
  now?: Date;
};

/**
 * A date range in a form (spec §5): typed or picked as DD.MM.YYYY - DD.MM.YYYY, from tomorrow
 * on, with the week on each side of a picked start left out, and no shortcuts.
 */
export function DateRangeField({ label, value, onChange, hint, error, onEnter, now, ...props }: DateRangeFieldProps) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error}>
      <div className="flex gap-2">
        <input
          id={id}
          inputMode="numeric"
          placeholder={t('datePicker.rangePlaceholder')}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          onKeyDown={enterHandler(onEnter)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, hint, error)}
          className={inputClasses(Boolean(error))}
          {...props}
        />
        <DatePicker
          mode="range"
          value={value}
          onChange={onChange}
          label={t('datePicker.open')}
          format={FIELD_FORMAT}
          separator={RANGE_SEPARATOR}
          shortcuts={false}
          isDisabled={(date, pendingStart) => isFieldDateDisabled(date, pendingStart, now ?? new Date())}
          now={now}
        />
      </div>
    </FieldFrame>
  );
}
