import {
  AUTOPILOT_CARD_ANCHOR,
  AUTOPILOT_MODES,
  type AutopilotSettings,
  type SprinklerDetail,
  TARIFF_PRESETS,
  WEEKDAYS,
} from '@pivot/contracts';
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { useAutopilotSettings } from '../api/get-autopilot-settings';
import { useSaveAutopilotSettings } from '../api/save-autopilot-settings';
import { AutopilotPlanSection } from './autopilot-plan';
import {
  type AutopilotForm,
  type FormErrors,
  TARIFF_PRESET_KEYS,
  type TariffChoice,
  type WindowForm,
  bodyOf,
  fieldPathsOf,
  formOf,
  presetOf,
  serverErrors,
  withTariff,
} from '../lib/autopilot-form';
import { DEFAULT_LOCALE, isLocale } from '@/config/locales';
import { numberFormat } from '@/i18n/number-format';
import { useOfflineReason } from '@/lib/use-offline-reason';
import { Button } from '@/ui/button';
import { Card } from '@/ui/card';
import { CheckboxField } from '@/ui/form/checkbox-field';
import { errorText } from '@/ui/form/field-frame';
import { SelectField } from '@/ui/form/select-field';
import { TextField } from '@/ui/form/text-field';
import { IconButton } from '@/ui/icon-button';
import { PlusIcon, TrashIcon } from '@/ui/other-icons';
import { showToast } from '@/ui/toast/toast-store';

/**
 * The machine's autopilot (docs/autopilot.md, "The modes and where they are set"): its mode (off,
 * suggest, auto), with what the mode does, and the farm's rules for it. Everyone the machine is
 * granted to sees them; a user with control changes and saves them.
 */
export function AutopilotCard({ sprinkler }: { sprinkler: Pick<SprinklerDetail, 'id' | 'level'> }) {
  const { t } = useTranslation();
  const { data } = useAutopilotSettings(sprinkler.id);
  const card = useRef<HTMLElement>(null);
  const { hash } = useLocation();
  // Arriving by its anchor (an "Irrigation due" alert): the card comes after the page's first
  // screen, so the browser's own jump to the anchor found nothing; its top is shown now, and its
  // one tap once the plan says to start (autopilot-plan.tsx).
  useEffect(() => {
    if (hash === `#${AUTOPILOT_CARD_ANCHOR}`) card.current?.scrollIntoView?.({ block: 'start' });
  }, [hash]);
  return (
    <Card
      ref={card}
      id={AUTOPILOT_CARD_ANCHOR}
      aria-labelledby="autopilot-title"
      className="flex scroll-mt-4 flex-col gap-3"
    >
      <h2 id="autopilot-title" className="text-lg font-semibold">
        {t('autopilot.title')}
      </h2>
      {data === false && <p className="text-sm text-ink-muted">{t('autopilot.loadFailed')}</p>}
      {data && (
        // Keyed by the stored settings: a save starts the form from what was stored.
        <AutopilotFields
          key={data.updatedAt ?? 'never'}
          sprinklerId={sprinkler.id}
          settings={data}
          controls={sprinkler.level === 'control'}
        />
      )}
    </Card>
  );
}

function AutopilotFields({
  sprinklerId,
  settings,
  controls,
}: {
  sprinklerId: number;
  settings: AutopilotSettings;
  controls: boolean;
}) {
  const { t, i18n } = useTranslation();
  const offlineReason = useOfflineReason();
  const save = useSaveAutopilotSettings();
  const decimal = numberFormat(i18n.language, { maximumFractionDigits: 2, useGrouping: false });
  const text = (value: number) => decimal.format(value);
  const [form, setForm] = useState<AutopilotForm>(() => formOf(settings, text));
  const [errors, setErrors] = useState<FormErrors>({});
  const modeName = useId();

  const change = (changes: Partial<AutopilotForm>) => setForm((current) => ({ ...current, ...changes }));
  const changeWindow = (index: number, changes: Partial<WindowForm>) =>
    change({ windows: form.windows.map((window, at) => (at === index ? { ...window, ...changes } : window)) });
  const error = (path: string) => errors[path];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = bodyOf(form, t('autopilot.notANumber'), isLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE);
    if (!checked.ok) {
      setErrors(checked.errors);
      showToast({ variant: 'warning', title: t('autopilot.invalid') });
      return;
    }
    setErrors({});
    const result = await save.run(sprinklerId, checked.body);
    if (!result) return;
    if (!result.ok) {
      setErrors(serverErrors(result.issues));
      showToast({ variant: 'warning', title: t('autopilot.invalid') });
      return;
    }
    showToast({ variant: 'success', title: t('autopilot.saved') });
  };

  const shown = fieldPathsOf(form);
  const otherErrors = Object.entries(errors).filter(([path]) => !shown.has(path));
  const tariff = form.tariff;

  return (
    <form aria-label={t('autopilot.title')} className="flex flex-col gap-4" onSubmit={(event) => void submit(event)}>
      {!controls && (
        <p role="note" className="rounded-lg border border-line bg-surface-muted px-3 py-2 text-sm font-medium">
          {t('autopilot.viewOnly')}
        </p>
      )}
      <fieldset disabled={!controls} className="flex min-w-0 flex-col gap-4">
        <fieldset className="flex min-w-0 flex-col gap-2">
          <legend className="mb-2 text-sm font-medium">{t('autopilot.modeLegend')}</legend>
          <div className="flex flex-wrap gap-2">
            {AUTOPILOT_MODES.map((mode) => (
              <label
                key={mode}
                className="flex flex-1 cursor-pointer items-center gap-2 whitespace-nowrap rounded-lg border border-line px-3 py-2 hover:bg-surface-muted has-[:checked]:border-water has-[:checked]:bg-water-soft/60"
              >
                <input
                  type="radio"
                  name={modeName}
                  value={mode}
                  checked={form.mode === mode}
                  onChange={() => change({ mode })}
                  className="size-5 shrink-0 accent-primary"
                />
                <span className="font-medium">{t(`autopilot.modes.${mode}`)}</span>
              </label>
            ))}
          </div>
          <p className="text-sm text-ink-muted" aria-live="polite">
            {t(`autopilot.modeHints.${form.mode}`)}
          </p>
        </fieldset>

        <AutopilotPlanSection sprinklerId={sprinklerId} controls={controls} />

        <h3 className="text-sm font-semibold">{t('autopilot.rulesTitle')}</h3>

        <fieldset className="flex min-w-0 flex-col gap-3">
          <legend className="text-sm font-medium">{t('autopilot.hours.legend')}</legend>
          <p className="text-sm text-ink-muted">{t('autopilot.hours.hint')}</p>
          {form.windows.map((window, index) => (
            <WindowFields
              key={index}
              index={index}
              window={window}
              error={error}
              onChange={(changes) => changeWindow(index, changes)}
              onRemove={
                form.windows.length > 1
                  ? () => change({ windows: form.windows.filter((_, at) => at !== index) })
                  : undefined
              }
            />
          ))}
          <FieldError message={error('allowedHours')} />
          {controls && (
            <Button
              variant="secondary"
              className="self-start"
              icon={<PlusIcon />}
              onClick={() =>
                change({ windows: [...form.windows, { days: [...WEEKDAYS], start: '22:00', end: '06:00' }] })
              }
            >
              {t('autopilot.hours.add')}
            </Button>
          )}
        </fieldset>

        <div className="flex flex-col gap-2">
          <SelectField
            label={t('autopilot.tariff.label')}
            hint={t('autopilot.tariff.note')}
            value={form.tariffChoice}
            onChange={(event) =>
              setForm(withTariff(form, event.target.value as TariffChoice, settings.rules.tariff, text))
            }
            options={[
              { value: 'none', label: t('autopilot.tariff.none') },
              ...(settings.rules.tariff && presetOf(settings.rules.tariff) === undefined
                ? [{ value: 'stored', label: t('autopilot.tariff.stored', { name: settings.rules.tariff.name }) }]
                : []),
              // A preset's name as its operators write it (C12a): the same in every language.
              ...TARIFF_PRESET_KEYS.map((key) => ({ value: key, label: TARIFF_PRESETS[key].name })),
            ]}
            error={error('tariff')}
          />
          {tariff && (
            <div className="grid grid-cols-2 gap-2">
              {tariff.zones.map((zone, index) => (
                <TextField
                  key={`${zone.zone}-${index}`}
                  label={t('autopilot.tariff.price', {
                    zone: t(`autopilot.zones.${zone.zone}`),
                    currency: tariff.currency,
                  })}
                  inputMode="decimal"
                  value={form.prices[index] ?? ''}
                  onChange={(event) =>
                    change({ prices: form.prices.map((price, at) => (at === index ? event.target.value : price)) })
                  }
                  error={error(`tariff.zones.${index}.pricePerKwh`)}
                />
              ))}
              <TextField
                label={t('autopilot.tariff.otherHours', {
                  zone: t(`autopilot.zones.${tariff.otherHours.zone}`),
                  currency: tariff.currency,
                })}
                inputMode="decimal"
                value={form.prices[tariff.zones.length] ?? ''}
                onChange={(event) =>
                  change({
                    prices: form.prices.map((price, at) => (at === tariff.zones.length ? event.target.value : price)),
                  })
                }
                error={error('tariff.otherHours.pricePerKwh')}
              />
            </div>
          )}
        </div>

        <Rule
          label={t('autopilot.rain.label')}
          on={form.rainSkip.on}
          onToggle={(on) => change({ rainSkip: { ...form.rainSkip, on } })}
        >
          <TextField
            label={t('autopilot.rain.mm')}
            inputMode="decimal"
            value={form.rainSkip.mm}
            onChange={(event) => change({ rainSkip: { ...form.rainSkip, mm: event.target.value } })}
            error={error('rainSkip.mm')}
          />
          <TextField
            label={t('autopilot.rain.withinHours')}
            inputMode="numeric"
            value={form.rainSkip.withinHours}
            onChange={(event) => change({ rainSkip: { ...form.rainSkip, withinHours: event.target.value } })}
            error={error('rainSkip.withinHours')}
          />
        </Rule>

        <Rule
          label={t('autopilot.wind.label')}
          on={form.wind.on}
          onToggle={(on) => change({ wind: { ...form.wind, on } })}
        >
          <TextField
            label={t('autopilot.wind.maxMs')}
            inputMode="decimal"
            value={form.wind.maxMs}
            onChange={(event) => change({ wind: { ...form.wind, maxMs: event.target.value } })}
            error={error('wind.maxMs')}
          />
        </Rule>

        <Rule
          label={t('autopilot.frost.label')}
          on={form.frost.on}
          onToggle={(on) => change({ frost: { ...form.frost, on } })}
        >
          <TextField
            label={t('autopilot.frost.minC')}
            inputMode="decimal"
            value={form.frost.minC}
            onChange={(event) => change({ frost: { ...form.frost, minC: event.target.value } })}
            error={error('frost.minC')}
          />
        </Rule>

        <div className="grid grid-cols-2 gap-2">
          <SelectField
            label={t('autopilot.allowance.label')}
            value={form.allowance.unit}
            onChange={(event) =>
              change({
                allowance: { ...form.allowance, unit: event.target.value as AutopilotForm['allowance']['unit'] },
              })
            }
            options={(['none', 'm3', 'mm'] as const).map((unit) => ({
              value: unit,
              label: t(`autopilot.allowance.${unit}`),
            }))}
          />
          {form.allowance.unit !== 'none' && (
            <TextField
              label={t('autopilot.allowance.amount')}
              inputMode="decimal"
              value={form.allowance.amount}
              onChange={(event) => change({ allowance: { ...form.allowance, amount: event.target.value } })}
              error={error('allowance.amount')}
            />
          )}
        </div>

        <Rule
          label={t('autopilot.pump.label')}
          on={form.pumpGroup.on}
          onToggle={(on) => change({ pumpGroup: { ...form.pumpGroup, on } })}
        >
          <TextField
            label={t('autopilot.pump.id')}
            value={form.pumpGroup.id}
            onChange={(event) => change({ pumpGroup: { ...form.pumpGroup, id: event.target.value } })}
            error={error('pumpGroup.id')}
          />
          <TextField
            label={t('autopilot.pump.maxAtOnce')}
            inputMode="numeric"
            value={form.pumpGroup.maxAtOnce}
            onChange={(event) => change({ pumpGroup: { ...form.pumpGroup, maxAtOnce: event.target.value } })}
            error={error('pumpGroup.maxAtOnce')}
          />
        </Rule>

        <TextField
          label={t('autopilot.pumpKw.label')}
          hint={t('autopilot.pumpKw.hint')}
          inputMode="decimal"
          className="max-w-48"
          value={form.pumpKw}
          onChange={(event) => change({ pumpKw: event.target.value })}
          error={error('pumpKw')}
        />

        {otherErrors.map(([path, message]) => (
          <FieldError key={path} message={message} />
        ))}
      </fieldset>
      {controls && (
        <Button
          type="submit"
          className="self-start"
          disabled={save.isPending || offlineReason !== undefined}
          title={offlineReason}
        >
          {t('autopilot.save')}
        </Button>
      )}
    </form>
  );
}

/** One allowed-hours window: its days, from, to, and its remove button. */
function WindowFields({
  index,
  window,
  error,
  onChange,
  onRemove,
}: {
  index: number;
  window: WindowForm;
  error: (path: string) => string | undefined;
  onChange: (changes: Partial<WindowForm>) => void;
  onRemove: (() => void) | undefined;
}) {
  const { t } = useTranslation();
  const number = index + 1;
  const path = `allowedHours.${index}`;
  return (
    <fieldset className="flex min-w-0 flex-col gap-2 rounded-lg border border-line p-3">
      <legend className="px-1 text-sm font-medium">{t('autopilot.hours.window', { number })}</legend>
      <div className="flex flex-wrap gap-x-3 gap-y-1">
        {WEEKDAYS.map((day) => (
          <CheckboxField
            key={day}
            label={t(`autopilot.days.${day}`)}
            checked={window.days.includes(day)}
            onChange={(event) =>
              onChange({
                days: event.target.checked ? [...window.days, day] : window.days.filter((other) => other !== day),
              })
            }
          />
        ))}
      </div>
      <FieldError message={error(`${path}.days`)} />
      <div className="grid grid-cols-[1fr_1fr_auto] items-start gap-2">
        <TextField
          label={t('autopilot.hours.start')}
          value={window.start}
          placeholder="22:00"
          onChange={(event) => onChange({ start: event.target.value })}
          error={error(`${path}.start`)}
        />
        <TextField
          label={t('autopilot.hours.end')}
          hint={t('autopilot.hours.timeHint')}
          value={window.end}
          placeholder="06:00"
          onChange={(event) => onChange({ end: event.target.value })}
          error={error(`${path}.end`)}
        />
        {onRemove && (
          <IconButton label={t('autopilot.hours.remove', { number })} className="mt-7" onClick={onRemove}>
            <TrashIcon className="size-5" />
          </IconButton>
        )}
      </div>
      <FieldError message={error(path)} />
    </fieldset>
  );
}

/** A rule that may be off: its checkbox, and its fields while it is on. */
function Rule({
  label,
  on,
  onToggle,
  children,
}: {
  label: string;
  on: boolean;
  onToggle: (on: boolean) => void;
  children: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-2">
      <CheckboxField label={label} checked={on} onChange={(event) => onToggle(event.target.checked)} />
      {on && <div className="grid grid-cols-2 gap-2 pl-7">{children}</div>}
    </div>
  );
}

function FieldError({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" className="text-sm font-medium whitespace-pre-line text-error">
      {errorText(message)}
    </p>
  );
}
