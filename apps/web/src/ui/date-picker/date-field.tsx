import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldFrame, type FieldError, describedBy, inputClasses } from '../form/field-frame';
import { DatePicker } from './date-picker';
import { FIELD_FORMAT } from './dates';

export type DateFieldProps = {
  label: ReactNode;
  hint?: ReactNode;
  error?: FieldError;
  /** DD.MM.YYYY, or '' for none. */
  value: string;
  onChange: (value: string) => void;
  /** 'above' for a field at the bottom of a dialog, which would clip a calendar hanging below it. */
  calendar?: 'below' | 'above';
};

const CALENDAR_ABOVE =
  '[&_[role=dialog]]:top-auto [&_[role=dialog]]:bottom-full [&_[role=dialog]]:mt-0 [&_[role=dialog]]:mb-2 [&_[role=dialog]]:max-w-[calc(100vw-3rem)]';

/** A day typed as DD.MM.YYYY (the form fields' format, spec §9) or picked from the calendar. */
export function DateField({ label, hint, error, value, onChange, calendar = 'below' }: DateFieldProps) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error}>
      <div className="flex gap-2">
        <input
          id={id}
          inputMode="numeric"
          autoComplete="off"
          placeholder={t('datePicker.placeholder')}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, hint, error)}
          className={inputClasses(Boolean(error))}
        />
        <div className={calendar === 'above' ? CALENDAR_ABOVE : undefined}>
          <DatePicker
            mode="single"
            value={value}
            onChange={onChange}
            label={t('datePicker.openDay')}
            format={FIELD_FORMAT}
          />
        </div>
      </div>
    </FieldFrame>
  );
}
