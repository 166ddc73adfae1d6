import { type InputHTMLAttributes, type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldFrame, type FieldError, describedBy, enterHandler, inputClasses } from '../form/field-frame';
import { DatePicker, type DatePickerProps } from './date-picker';
import { isFieldDateDisabled } from './calendar-days';
import { FIELD_FORMAT, RANGE_SEPARATOR } from './dates';

export type DateFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange'> & {
  label: ReactNode;
  /** DD.MM.YYYY (a range: 'DD.MM.YYYY - DD.MM.YYYY'), or '' for none. */
  value: string;
  onChange: (value: string) => void;
  /** A day (the default) or a range with the form field's rules of docs/product.md#validation. */
  mode?: 'single' | 'range';
  hint?: ReactNode;
  error?: FieldError;
  onEnter?: () => void;
  now?: Date;
  placement?: DatePickerProps['placement'];
};

/**
 * A date in a form, typed as DD.MM.YYYY (the form fields' format, docs/product.md#limits) or picked from the
 * calendar. A range (docs/product.md#validation) starts tomorrow, leaves out the week on each side of a picked
 * start, and has no shortcuts.
 */
export function DateField({
  label,
  value,
  onChange,
  mode = 'single',
  hint,
  error,
  onEnter,
  now,
  placement,
  ...props
}: DateFieldProps) {
  const { t } = useTranslation();
  const id = useId();
  const range = mode === 'range';
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error}>
      <div className="flex gap-2">
        <input
          id={id}
          inputMode="numeric"
          autoComplete="off"
          placeholder={range ? t('datePicker.rangePlaceholder') : t('datePicker.placeholder')}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          onKeyDown={enterHandler(onEnter)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, hint, error)}
          className={inputClasses(Boolean(error))}
          {...props}
        />
        <DatePicker
          mode={mode}
          value={value}
          onChange={onChange}
          label={range ? t('datePicker.open') : t('datePicker.openDay')}
          format={FIELD_FORMAT}
          separator={RANGE_SEPARATOR}
          shortcuts={false}
          isDisabled={
            range ? (date, pendingStart) => isFieldDateDisabled(date, pendingStart, now ?? new Date()) : undefined
          }
          now={now}
          placement={placement}
        />
      </div>
    </FieldFrame>
  );
}

export type DateRangeFieldProps = Omit<DateFieldProps, 'mode'>;

/** A date range in a form (docs/product.md#validation): DD.MM.YYYY - DD.MM.YYYY, from tomorrow on. */
export function DateRangeField(props: DateRangeFieldProps) {
  return <DateField mode="range" {...props} />;
}
