import {
  type AutopilotMode,
  type AutopilotSettings,
  type AutopilotSettingsBody,
  AutopilotSettingsBodySchema,
  TARIFF_PRESETS,
  type Tariff,
  TariffSchema,
  type Language,
  type ValidationIssue,
  contractMessage,
} from '@pivot/contracts';
import { parseDecimal } from '@/lib/decimal';

/** The tariff presets the form offers, by key (examples: docs/autopilot.md). */
export const TARIFF_PRESET_KEYS = Object.keys(TARIFF_PRESETS) as (keyof typeof TARIFF_PRESETS)[];
export type TariffChoice = 'none' | keyof typeof TARIFF_PRESETS | 'stored';

export type WindowForm = { days: number[]; start: string; end: string };

/** The rules as the form holds them: numbers as typed, each rule on or off. */
export type AutopilotForm = {
  mode: AutopilotMode;
  windows: WindowForm[];
  tariffChoice: TariffChoice;
  /** The chosen tariff's zones and other hours; the prices as typed, zone by zone, then the other hours. */
  tariff: Tariff | null;
  prices: string[];
  rainSkip: { on: boolean; mm: string; withinHours: string };
  wind: { on: boolean; maxMs: string };
  frost: { on: boolean; minC: string };
  allowance: { unit: 'none' | 'm3' | 'mm'; amount: string };
  pumpGroup: { on: boolean; id: string; maxAtOnce: string };
  /** The pump's power, kW, as typed; empty: not said. */
  pumpKw: string;
};

/** Field errors by the rules' path ('allowedHours.0.start', 'wind.maxMs'); '' for the form as a whole. */
export type FormErrors = Record<string, string>;

/** The numbers a form shows: the locale's decimal separator, as typed. */
export type NumberText = (value: number) => string;

/** A stored tariff's prices: its zones in order, then the other hours. */
function pricesOf(tariff: Tariff, text: NumberText): string[] {
  return [...tariff.zones.map((zone) => text(zone.pricePerKwh)), text(tariff.otherHours.pricePerKwh)];
}

/** What the rules of a preset are, parsed (defaults filled). */
export function presetTariff(key: keyof typeof TARIFF_PRESETS): Tariff {
  return TariffSchema.parse(TARIFF_PRESETS[key]);
}

/** The preset a tariff is named after, if any. */
export function presetOf(tariff: Tariff): keyof typeof TARIFF_PRESETS | undefined {
  return TARIFF_PRESET_KEYS.find((key) => TARIFF_PRESETS[key].name === tariff.name);
}

/** The form of stored settings. A stored tariff named as a preset is that preset's choice, its prices as stored. */
export function formOf(settings: AutopilotSettings, text: NumberText): AutopilotForm {
  const { rules } = settings;
  const preset = rules.tariff && presetOf(rules.tariff);
  return {
    mode: settings.mode,
    windows: rules.allowedHours.map((window) => ({ ...window, days: [...window.days] })),
    tariffChoice: rules.tariff ? (preset ?? 'stored') : 'none',
    tariff: rules.tariff,
    prices: rules.tariff ? pricesOf(rules.tariff, text) : [],
    rainSkip: rules.rainSkip
      ? { on: true, mm: text(rules.rainSkip.mm), withinHours: String(rules.rainSkip.withinHours) }
      : { on: false, mm: '10', withinHours: '24' },
    wind: rules.wind ? { on: true, maxMs: text(rules.wind.maxMs) } : { on: false, maxMs: '10' },
    frost: rules.frost ? { on: true, minC: text(rules.frost.minC) } : { on: false, minC: '2' },
    allowance: rules.allowance
      ? { unit: rules.allowance.unit, amount: text(rules.allowance.amount) }
      : { unit: 'none', amount: '' },
    pumpGroup: rules.pumpGroup
      ? { on: true, id: rules.pumpGroup.id, maxAtOnce: String(rules.pumpGroup.maxAtOnce) }
      : { on: false, id: '', maxAtOnce: '1' },
    pumpKw: rules.pumpKw === null ? '' : text(rules.pumpKw),
  };
}

/** The form with another tariff chosen: a preset's zones and prices, the stored one back, or none. */
export function withTariff(
  form: AutopilotForm,
  choice: TariffChoice,
  stored: Tariff | null,
  text: NumberText,
): AutopilotForm {
  const tariff = choice === 'none' ? null : choice === 'stored' ? stored : presetTariff(choice);
  return { ...form, tariffChoice: choice, tariff, prices: tariff ? pricesOf(tariff, text) : [] };
}

/**
 * The body the form's values give, or the errors of the fields whose numbers cannot be read
 * (`notANumber`) or that the contracts' schema refuses (zod's messages in the page's language, as
 * lib/zod-language.ts sets it; the contracts' own in `language`).
 */
export function bodyOf(
  form: AutopilotForm,
  notANumber: string,
  language: Language,
): { ok: true; body: AutopilotSettingsBody } | { ok: false; errors: FormErrors } {
  const errors: FormErrors = {};
  const number = (path: string, value: string): number => {
    const parsed = parseDecimal(value);
    if (parsed === null) errors[path] = notANumber;
    return parsed ?? Number.NaN;
  };
  const tariff = form.tariff && {
    ...form.tariff,
    zones: form.tariff.zones.map((zone, index) => ({
      ...zone,
      pricePerKwh: number(`tariff.zones.${index}.pricePerKwh`, form.prices[index] ?? ''),
    })),
    otherHours: {
      ...form.tariff.otherHours,
      pricePerKwh: number('tariff.otherHours.pricePerKwh', form.prices[form.tariff.zones.length] ?? ''),
    },
  };
  const rules = {
    allowedHours: form.windows.map((window) => ({
      days: [...window.days].sort((a, b) => a - b),
      start: window.start.trim(),
      end: window.end.trim(),
    })),
    tariff,
    rainSkip: form.rainSkip.on
      ? {
          mm: number('rainSkip.mm', form.rainSkip.mm),
          withinHours: number('rainSkip.withinHours', form.rainSkip.withinHours),
        }
      : null,
    wind: form.wind.on ? { maxMs: number('wind.maxMs', form.wind.maxMs) } : null,
    frost: form.frost.on ? { minC: number('frost.minC', form.frost.minC) } : null,
    allowance:
      form.allowance.unit === 'none'
        ? null
        : { unit: form.allowance.unit, amount: number('allowance.amount', form.allowance.amount) },
    pumpGroup: form.pumpGroup.on
      ? { id: form.pumpGroup.id, maxAtOnce: number('pumpGroup.maxAtOnce', form.pumpGroup.maxAtOnce) }
      : null,
    pumpKw: form.pumpKw.trim() === '' ? null : number('pumpKw', form.pumpKw),
  };
  const parsed = AutopilotSettingsBodySchema.safeParse({ mode: form.mode, rules });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = issue.path.slice(1).join('.');
      errors[path] ??= contractMessage(issue.message, language);
    }
  }
  if (Object.keys(errors).length > 0 || !parsed.success) return { ok: false, errors };
  return { ok: true, body: parsed.data };
}

/** The server's refusal, by the form's paths: 'body.rules.wind.maxMs' is 'wind.maxMs'. */
export function serverErrors(issues: readonly ValidationIssue[]): FormErrors {
  const errors: FormErrors = {};
  for (const issue of issues) {
    const path = issue.path.replace(/^body(\.rules)?\.?/, '');
    errors[path] = errors[path] ? `${errors[path]}\n${issue.message}` : issue.message;
  }
  return errors;
}

/** The paths the form shows an error beside; any other error is listed under the form. */
export function fieldPathsOf(form: AutopilotForm): Set<string> {
  const paths = [
    'mode',
    'allowedHours',
    'tariff',
    'tariff.otherHours.pricePerKwh',
    'rainSkip.mm',
    'rainSkip.withinHours',
  ];
  paths.push('wind.maxMs', 'frost.minC', 'allowance.amount', 'pumpGroup.id', 'pumpGroup.maxAtOnce', 'pumpKw');
  form.windows.forEach((_, index) => {
    for (const field of ['', '.days', '.start', '.end']) paths.push(`allowedHours.${index}${field}`);
  });
  form.tariff?.zones.forEach((_, index) => paths.push(`tariff.zones.${index}.pricePerKwh`));
  return new Set(paths);
}
