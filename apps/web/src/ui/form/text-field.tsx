import { type InputHTMLAttributes, type ReactNode, useId } from 'react';
import { FieldFrame, type FieldError, describedBy, enterHandler, inputClasses } from './field-frame';

export type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & {
  label: ReactNode;
  hint?: ReactNode;
  error?: FieldError;
  onEnter?: () => void;
};

export function TextField({ label, hint, error, onEnter, className = '', ...props }: TextFieldProps) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error}>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        onKeyDown={enterHandler(onEnter)}
        className={`${inputClasses(Boolean(error))} ${className}`}
        {...props}
      />
    </FieldFrame>
  );
}
