import { ALERT_CHANNELS, type AlertChannel, INCIDENT_KINDS, type IncidentKind } from '@pivot/contracts';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';

type Choice<Value extends string> = { value: Value; label: string; hint: string; more?: ReactNode };

type ChoiceListProps<Value extends string> = {
  legend: string;
  /** Every value, in the order they are shown and kept. */
  all: readonly Value[];
  choices: Choice<Value>[];
  value: readonly Value[];
  onChange: (value: Value[]) => void;
  disabled?: boolean;
};

/** Checkboxes for a set of values, each with a line that explains it; the chosen ones stay in `all`'s order. */
function ChoiceList<Value extends string>({ legend, all, choices, value, onChange, disabled }: ChoiceListProps<Value>) {
  const id = useId();
  const toggle = (changed: Value, checked: boolean) =>
    onChange(all.filter((item) => (item === changed ? checked : value.includes(item))));
  return (
    <fieldset className="flex min-w-0 flex-col gap-3" disabled={disabled}>
      <legend className="mb-3 font-semibold">{legend}</legend>
      {choices.map((choice) => (
        <div key={choice.value} className="flex items-start gap-3">
          <input
            id={`${id}-${choice.value}`}
            type="checkbox"
            name={choice.value}
            checked={value.includes(choice.value)}
            onChange={(event) => toggle(choice.value, event.target.checked)}
            aria-describedby={`${id}-${choice.value}-hint`}
            className="mt-0.5 size-5 shrink-0 rounded border-line accent-primary"
          />
          <div className="flex min-w-0 flex-col gap-0.5">
            <label htmlFor={`${id}-${choice.value}`} className="text-sm font-medium">
              {choice.label}
            </label>
            <p id={`${id}-${choice.value}-hint`} className="text-sm text-ink-muted">
              {choice.hint}
            </p>
            {choice.more}
          </div>
        </div>
      ))}
    </fieldset>
  );
}

export type AlertChoiceFieldProps<Value extends string> = {
  /** The group's title, when not the user's own choice ("What to alert you about"). */
  legend?: string;
  value: readonly Value[];
  onChange: (value: Value[]) => void;
  disabled?: boolean;
};

/** The incidents a user is alerted about: the four kinds, each explained in a line. */
export function IncidentKindsField({ legend, ...props }: AlertChoiceFieldProps<IncidentKind>) {
  const { t } = useTranslation();
  const choices = INCIDENT_KINDS.map((kind) => ({
    value: kind,
    label: t(`alerts.kinds.${kind}.label`),
    hint: t(`alerts.kinds.${kind}.hint`),
  }));
  return <ChoiceList legend={legend ?? t('alerts.kinds.legend')} all={INCIDENT_KINDS} choices={choices} {...props} />;
}

/** Where alerts reach a user: in the app, by e-mail, by push; `more` adds to a channel's line (push's state in this browser). */
export function AlertChannelsField({
  legend,
  more = {},
  ...props
}: AlertChoiceFieldProps<AlertChannel> & { more?: Partial<Record<AlertChannel, ReactNode>> }) {
  const { t } = useTranslation();
  const choices = ALERT_CHANNELS.map((channel) => ({
    value: channel,
    label: t(`alerts.channels.${channel}.label`),
    hint: t(`alerts.channels.${channel}.hint`),
    more: more[channel],
  }));
  return (
    <ChoiceList legend={legend ?? t('alerts.channels.legend')} all={ALERT_CHANNELS} choices={choices} {...props} />
  );
}
