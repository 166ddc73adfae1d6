import { CROP_KEYS, type CropSeason, SOIL_TEXTURE_KEYS } from '@pivot/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CUSTOM,
  type DecimalMark,
  SOIL_DEFAULTS,
  type SeasonField,
  type SeasonForm,
  type SeasonFormErrors,
  WHOLE_CIRCLE,
  chooseSoil,
  emptySeasonForm,
  formToSeason,
  isCropKey,
  seasonToForm,
} from '../lib/season-form';
import { useSeasonErrorText } from '../hooks/use-season-error-text';
import { DateField } from '@/ui/date-picker/date-field';
import { FormDialog } from '@/ui/form-dialog';
import { SelectField } from '@/ui/form/select-field';
import { TextField } from '@/ui/form/text-field';
import { useOfflineReason } from '@/lib/use-offline-reason';

export type SeasonFormDialogProps = {
  /** The season edited; null adds one. */
  season: CropSeason | null;
  /** The names of the crop areas of the machine's map. */
  areas: readonly string[];
  /** dd.mm.yyyy proposed for a new season. */
  defaultEmergence: string;
  /** Stores the season; answers the problems the server found, or null once stored. */
  onSave: (season: CropSeason) => Promise<{ fields: SeasonFormErrors; other: string[] } | null>;
  onClose: () => void;
};

/** Adds or edits one crop season: crop, area, emergence and soil (docs/advice.md). */
export function SeasonFormDialog({ season, areas, defaultEmergence, onSave, onClose }: SeasonFormDialogProps) {
  const { t, i18n } = useTranslation();
  const offlineReason = useOfflineReason();
  const errorText = useSeasonErrorText();
  const mark: DecimalMark = i18n.language === 'pl' ? ',' : '.';
  const [form, setForm] = useState<SeasonForm>(() =>
    season ? seasonToForm(season, mark) : emptySeasonForm(defaultEmergence, mark),
  );
  const [errors, setErrors] = useState<SeasonFormErrors>({});
  const [other, setOther] = useState<string[]>([]);
  const [pending, setPending] = useState(false);

  const set = (field: SeasonField, value: string) => {
    setForm((current) => {
      if (field === 'fieldCapacity' || field === 'wiltingPoint') return { ...current, [field]: value, soil: CUSTOM };
      return { ...current, [field]: value };
    });
    setErrors((current) => ({ ...current, [field]: undefined }));
  };
  const textField = (field: SeasonField, extra: { hint?: string; inputMode?: 'decimal' | 'numeric' } = {}) => (
    <TextField
      label={t(`advice.seasons.form.${field}` as 'advice.seasons.form.name')}
      value={form[field]}
      onChange={(event) => set(field, event.target.value)}
      error={errorText(errors[field])}
      inputMode={extra.inputMode ?? 'decimal'}
      hint={extra.hint}
      name={field}
    />
  );

  // A season names an area as the map had it; a since renamed area stays a choice until changed.
  const areaNames = form.area && !areas.includes(form.area) ? [...areas, form.area] : areas;
  const areaOptions = [
    { value: WHOLE_CIRCLE, label: t('advice.seasons.wholeCircle') },
    ...areaNames.map((name) => ({ value: name, label: name })),
  ];
  const cropOptions = [
    ...CROP_KEYS.map((key) => ({ value: key, label: t(`advice.crops.${key}`) })),
    { value: CUSTOM, label: t('advice.seasons.customCrop') },
  ];
  const soilOptions = [
    ...SOIL_TEXTURE_KEYS.map((key) => ({
      value: key,
      label: t('advice.soilOption', {
        soil: t(`advice.soils.${key}`),
        fieldCapacity: String(Math.round(SOIL_DEFAULTS[key].fieldCapacity * 1000) / 10).replace('.', mark),
        wiltingPoint: String(Math.round(SOIL_DEFAULTS[key].wiltingPoint * 1000) / 10).replace('.', mark),
      }),
    })),
    { value: CUSTOM, label: t('advice.seasons.customSoil') },
  ];

  const submit = async () => {
    const built = formToSeason(form);
    if (!built.ok) {
      setErrors(built.errors);
      return;
    }
    setPending(true);
    try {
      const problems = await onSave(built.season);
      if (problems) {
        setErrors(problems.fields);
        setOther(problems.other);
      }
    } finally {
      setPending(false);
    }
  };

  return (
    <FormDialog
      title={season ? t('advice.seasons.form.editTitle') : t('advice.seasons.form.addTitle')}
      description={t('advice.seasons.form.description')}
      submitLabel={t('advice.seasons.form.save')}
      pendingLabel={t('advice.seasons.form.saving')}
      pending={pending}
      submitDisabled={offlineReason !== undefined}
      submitTitle={offlineReason}
      onSubmit={submit}
      onClose={onClose}
      width="wide"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        {textField('name', { inputMode: undefined })}
        <SelectField
          label={t('advice.seasons.form.area')}
          hint={t('advice.seasons.form.areaHint')}
          options={areaOptions}
          value={form.area}
          onChange={(event) => set('area', event.target.value)}
          error={errorText(errors.area)}
          name="area"
        />
        <SelectField
          label={t('advice.seasons.form.crop')}
          options={cropOptions}
          value={form.crop}
          onChange={(event) => {
            const crop = event.target.value;
            setForm((current) => ({ ...current, crop: isCropKey(crop) ? crop : CUSTOM }));
            setErrors((current) => ({ ...current, crop: undefined }));
          }}
          error={errorText(errors.crop)}
          name="crop"
        />
        <DateField
          label={t('advice.seasons.form.emergence')}
          value={form.emergence}
          onChange={(value) => set('emergence', value)}
          error={errorText(errors.emergence)}
          name="emergence"
        />
      </div>
      {form.crop === CUSTOM && (
        <fieldset className="grid gap-4 rounded-lg border border-line p-3 sm:grid-cols-2">
          <legend className="px-1 text-sm font-semibold">{t('advice.seasons.customCrop')}</legend>
          {textField('kcIni')}
          {textField('kcMid')}
          {textField('kcEnd')}
          {textField('cropP')}
          {textField('stageIni', { inputMode: 'numeric' })}
          {textField('stageDev', { inputMode: 'numeric' })}
          {textField('stageMid', { inputMode: 'numeric' })}
          {textField('stageLate', { inputMode: 'numeric' })}
          {textField('rootMin')}
          {textField('rootMax')}
        </fieldset>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="sm:col-span-2">
          <SelectField
            label={t('advice.seasons.form.soil')}
            hint={t('advice.seasons.form.soilHint')}
            options={soilOptions}
            value={form.soil}
            onChange={(event) => {
              setForm((current) => chooseSoil(current, event.target.value, mark));
              setErrors((current) => ({ ...current, fieldCapacity: undefined, wiltingPoint: undefined }));
            }}
            name="soil"
          />
        </div>
        {textField('fieldCapacity')}
        {textField('wiltingPoint')}
        {textField('p', { hint: t('advice.seasons.form.pHint') })}
        {textField('efficiency', { hint: t('advice.seasons.form.efficiencyHint') })}
      </div>
      {other.length > 0 && (
        <p role="alert" className="text-sm font-medium text-error">
          {t('advice.seasons.form.otherProblems', { problems: other.map((message) => errorText(message)).join('; ') })}
        </p>
      )}
    </FormDialog>
  );
}
