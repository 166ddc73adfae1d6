import { type InputHTMLAttributes, type ReactNode, useId } from 'react';
import { enterHandler } from './field-frame';

export type CheckboxFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'type'> & {
  label: ReactNode;
  onEnter?: () => void;
};

export function CheckboxField({ label, onEnter, ...props }: CheckboxFieldProps) {
  const id = useId();
  return (
    <div className="flex items-center gap-2.5">
      <input
        id={id}
        type="checkbox"
        onKeyDown={enterHandler(onEnter)}
        className="size-5 shrink-0 rounded border-line accent-primary"
        {...props}
      />
      <label htmlFor={id} className="text-sm">
        {label}
      </label>
    </div>
  );
}
