import { type ReactNode, type SelectHTMLAttributes, useId } from 'react';
import { FieldFrame, type FieldError, describedBy, inputClasses } from './field-frame';

export type SelectFieldProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> & {
  label: ReactNode;
  options: readonly { value: string; label: string }[];
  hint?: ReactNode;
  error?: FieldError;
};

/** The native select: on a phone it opens the system's own picker. */
export function SelectField({ label, options, hint, error, ...props }: SelectFieldProps) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error}>
      <select
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        className={inputClasses(Boolean(error))}
        {...props}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}
