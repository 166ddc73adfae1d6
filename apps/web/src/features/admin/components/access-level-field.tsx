import { ACCESS_LEVELS, type AccessLevel } from '@pivot/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

/** Watch or control, each with what it allows, for a grant being made. */
export function AccessLevelField({ value, onChange }: { value: AccessLevel; onChange: (level: AccessLevel) => void }) {
  const { t } = useTranslation();
  const name = useId();
  return (
    <fieldset className="flex min-w-0 flex-col gap-2">
      <legend className="mb-2 text-sm font-medium">{t('admin.access.levelLegend')}</legend>
      <div className="flex flex-col gap-2 sm:flex-row">
        {ACCESS_LEVELS.map((level) => (
          <label
            key={level}
            className="flex flex-1 cursor-pointer items-start gap-3 rounded-lg border border-line px-3 py-2.5 hover:bg-surface-muted has-[:checked]:border-water has-[:checked]:bg-water-soft/60"
          >
            <input
              type="radio"
              name={name}
              value={level}
              checked={value === level}
              onChange={() => onChange(level)}
              className="mt-0.5 size-5 shrink-0 accent-primary"
            />
            <span className="flex min-w-0 flex-col">
              <span className="font-medium">{t(`admin.access.levels.${level}`)}</span>
              <span className="text-sm text-ink-muted">{t(`admin.access.levelHints.${level}`)}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
