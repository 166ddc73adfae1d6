import type { KeyboardEvent, ReactNode } from 'react';
import { ErrorIcon } from '../other-icons';

export type FieldError = string | readonly string[] | undefined;

/** Several problems with one field are shown one per line (docs/product.md#validation). */
export function errorText(error: FieldError): string {
  if (!error) return '';
  return typeof error === 'string' ? error : error.join('\n');
}

/** The ids a control points at with aria-describedby: its hint and its error. */
export function describedBy(id: string, hint: ReactNode, error: FieldError): string | undefined {
  const ids = [hint ? `${id}-hint` : '', errorText(error) ? `${id}-error` : ''].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

/** Enter in a text or checkbox input emits onEnter (docs/product.md#validation), e.g. to submit from "remember me". */
export function enterHandler(onEnter: (() => void) | undefined) {
  return (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' && onEnter && !event.nativeEvent.isComposing) onEnter();
  };
}

export const inputClasses = (invalid: boolean) =>
  `h-10 w-full rounded-md border bg-surface px-3 text-ink placeholder:text-ink-muted ${
    invalid ? 'border-error' : 'border-line'
  } disabled:opacity-60`;

export type FieldFrameProps = {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: FieldError;
  children: ReactNode;
};

/** Label, control, hint and error of a form field, tied together for screen readers. */
export function FieldFrame({ id, label, hint, error, children }: FieldFrameProps) {
  const message = errorText(error);
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {children}
      {hint && (
        <div id={`${id}-hint`} className="text-sm text-ink-muted">
          {hint}
        </div>
      )}
      {message && (
        <p id={`${id}-error`} className="flex items-start gap-1.5 text-sm font-medium text-error">
          <ErrorIcon className="mt-0.5 size-4 shrink-0" />
          <span className="whitespace-pre-line">{message}</span>
        </p>
      )}
    </div>
  );
}
