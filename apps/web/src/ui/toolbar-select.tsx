import { useId } from 'react';

export type ToolbarSelectProps = {
  /** Names the choice ("Status", "Farm"). */
  label: string;
  /** The chosen option's value; '' while every row is shown. */
  value: string;
  onChange: (value: string) => void;
  /** The first option, of every row ("All states", "All farms"). */
  allLabel: string;
  options: readonly { value: string; label: string }[];
};

/** A choice of which rows to show, above a table: its label beside the native select (a phone opens its own picker). */
export function ToolbarSelect({ label, value, onChange, allLabel, options }: ToolbarSelectProps) {
  const id = useId();
  return (
    <div className="flex max-w-full flex-wrap items-center gap-2 text-sm">
      <label htmlFor={id} className="font-medium text-ink-muted">
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className="h-10 max-w-full min-w-0 rounded-md border border-line bg-surface px-2 text-ink"
      >
        <option value="">{allLabel}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
