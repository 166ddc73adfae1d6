import {
  CROP_KEYS,
  type CropKey,
  type CropSeason,
  CropSeasonSchema,
  SOIL_TEXTURE_KEYS,
  type SoilTextureKey,
  type ValidationIssue,
} from '@pivot/contracts';
import { parseDecimal } from '@/lib/decimal';
import { zodInPageLanguage } from '@/lib/zod-language';

/**
 * FAO-56 (1998) Table 19's defaults, the middle of each range, as volumetric fractions: the
 * server's soil table holds the same (docs/advice.md, "The soils"); shown beside each class.
 */
export const SOIL_DEFAULTS: Readonly<Record<SoilTextureKey, { fieldCapacity: number; wiltingPoint: number }>> = {
  sand: { fieldCapacity: 0.12, wiltingPoint: 0.045 },
  'loamy-sand': { fieldCapacity: 0.15, wiltingPoint: 0.065 },
  'sandy-loam': { fieldCapacity: 0.23, wiltingPoint: 0.11 },
  loam: { fieldCapacity: 0.25, wiltingPoint: 0.12 },
  'silt-loam': { fieldCapacity: 0.29, wiltingPoint: 0.15 },
  silt: { fieldCapacity: 0.32, wiltingPoint: 0.17 },
  'silty-clay-loam': { fieldCapacity: 0.335, wiltingPoint: 0.205 },
  'silty-clay': { fieldCapacity: 0.36, wiltingPoint: 0.23 },
  clay: { fieldCapacity: 0.36, wiltingPoint: 0.22 },
};

export const CUSTOM = 'custom';
/** The area select's value for the whole irrigated circle (the API's `polygon: null`). */
export const WHOLE_CIRCLE = '';

/** The season form as typed: every field text, percentages as the user reads them. */
export type SeasonForm = {
  name: string;
  /** A crop area's name, or WHOLE_CIRCLE. */
  area: string;
  crop: CropKey | typeof CUSTOM;
  kcIni: string;
  kcMid: string;
  kcEnd: string;
  stageIni: string;
  stageDev: string;
  stageMid: string;
  stageLate: string;
  rootMin: string;
  rootMax: string;
  /** The custom crop's own p (a fraction). */
  cropP: string;
  /** dd.mm.yyyy */
  emergence: string;
  soil: SoilTextureKey | typeof CUSTOM;
  /** Water contents in % of the volume (25 for 0.25). */
  fieldCapacity: string;
  wiltingPoint: string;
  /** The season's own allowed depletion p, a fraction; '' for Table 22's. */
  p: string;
  /** The application efficiency in %; '' for 85 %. */
  efficiency: string;
};

export type SeasonField = keyof SeasonForm;
/** Problems by field, each a message key below `advice.seasons.errors` or a server's message as is. */
export type SeasonFormErrors = Partial<Record<SeasonField, string>>;

export const isCropKey = (value: string): value is CropKey => (CROP_KEYS as readonly string[]).includes(value);
export const isSoilKey = (value: string): value is SoilTextureKey =>
  (SOIL_TEXTURE_KEYS as readonly string[]).includes(value);

/** How the page writes a decimal: Polish with a comma ("6,5"); the form reads either. */
export type DecimalMark = '.' | ',';

/** A number without the float's tail (0.15 × 100 = 15.000000000000002), with the page's decimal mark. */
const tidy = (value: number, mark: DecimalMark = '.') => String(Math.round(value * 1e6) / 1e6).replace('.', mark);
const percent = (fraction: number, mark: DecimalMark = '.') => tidy(fraction * 100, mark);

export function emptySeasonForm(emergence: string, mark: DecimalMark = '.'): SeasonForm {
  const soil = SOIL_DEFAULTS.loam;
  return {
    name: '',
    area: WHOLE_CIRCLE,
    crop: 'maize-grain',
    kcIni: '',
    kcMid: '',
    kcEnd: '',
    stageIni: '',
    stageDev: '',
    stageMid: '',
    stageLate: '',
    rootMin: '',
    rootMax: '',
    cropP: '',
    emergence,
    soil: 'loam',
    fieldCapacity: percent(soil.fieldCapacity, mark),
    wiltingPoint: percent(soil.wiltingPoint, mark),
    p: '',
    efficiency: '',
  };
}

/** A stored season as the form shows it. */
export function seasonToForm(season: CropSeason, mark: DecimalMark = '.'): SeasonForm {
  const number = (value: number) => tidy(value, mark);
  const form = emptySeasonForm(season.emergence, mark);
  form.name = season.name;
  form.area = season.polygon ?? WHOLE_CIRCLE;
  if (typeof season.crop === 'string') {
    form.crop = season.crop;
  } else {
    const { kc, stages, rootDepth, p } = season.crop;
    Object.assign(form, {
      crop: CUSTOM,
      kcIni: number(kc[0]),
      kcMid: number(kc[1]),
      kcEnd: number(kc[2]),
      stageIni: number(stages[0]),
      stageDev: number(stages[1]),
      stageMid: number(stages[2]),
      stageLate: number(stages[3]),
      rootMin: number(rootDepth[0]),
      rootMax: number(rootDepth[1]),
      cropP: number(p),
    });
  }
  const water = typeof season.soil === 'string' ? SOIL_DEFAULTS[season.soil] : season.soil;
  form.soil = typeof season.soil === 'string' ? season.soil : CUSTOM;
  form.fieldCapacity = percent(water.fieldCapacity, mark);
  form.wiltingPoint = percent(water.wiltingPoint, mark);
  form.p = season.p === undefined ? '' : number(season.p);
  form.efficiency = season.efficiency === undefined ? '' : percent(season.efficiency, mark);
  return form;
}

/** Choosing a texture class shows its defaults; typing either value makes the soil the field's own. */
export function chooseSoil(form: SeasonForm, soil: string, mark: DecimalMark = '.'): SeasonForm {
  if (!isSoilKey(soil)) return { ...form, soil: CUSTOM };
  const water = SOIL_DEFAULTS[soil];
  return {
    ...form,
    soil,
    fieldCapacity: percent(water.fieldCapacity, mark),
    wiltingPoint: percent(water.wiltingPoint, mark),
  };
}

type Built = { ok: true; season: CropSeason } | { ok: false; errors: SeasonFormErrors };

/**
 * The API's season from the form (efficiency and water contents from % to fractions), checked
 * with the contract's own schema so that the fields show what the server would refuse.
 */
export function formToSeason(form: SeasonForm): Built {
  const errors: SeasonFormErrors = {};
  const numberOf = (field: SeasonField, scale = 1): number => {
    const value = parseDecimal(form[field]);
    if (value === null) {
      errors[field] = 'number';
      return Number.NaN;
    }
    // A percent read as a fraction without the float's tail (28.5 % is 0.285, not 0.28500000000000003).
    return scale === 1 ? value : Math.round(value * scale * 1e6) / 1e6;
  };
  const optional = (field: SeasonField, scale = 1): number | undefined =>
    form[field].trim() === '' ? undefined : numberOf(field, scale);

  const crop: CropSeason['crop'] =
    form.crop === CUSTOM
      ? {
          kc: [numberOf('kcIni'), numberOf('kcMid'), numberOf('kcEnd')],
          stages: [numberOf('stageIni'), numberOf('stageDev'), numberOf('stageMid'), numberOf('stageLate')],
          rootDepth: [numberOf('rootMin'), numberOf('rootMax')],
          p: numberOf('cropP'),
        }
      : form.crop;
  const soil: CropSeason['soil'] =
    form.soil === CUSTOM
      ? { fieldCapacity: numberOf('fieldCapacity', 0.01), wiltingPoint: numberOf('wiltingPoint', 0.01) }
      : form.soil;
  const p = optional('p');
  const efficiency = optional('efficiency', 0.01);
  if (Object.keys(errors).length > 0) return { ok: false, errors };

  const season: CropSeason = {
    name: form.name.trim(),
    polygon: form.area === WHOLE_CIRCLE ? null : form.area,
    crop,
    emergence: form.emergence.trim(),
    soil,
    ...(p === undefined ? {} : { p }),
    ...(efficiency === undefined ? {} : { efficiency }),
  };
  zodInPageLanguage();
  const parsed = CropSeasonSchema.safeParse(season);
  if (parsed.success) return { ok: true, season: parsed.data };
  return {
    ok: false,
    errors: fieldErrors(parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }))),
  };
}

/** The custom crop's fields by the name its problem starts with ("kc: Give Kc as …"). */
const CUSTOM_CROP_FIELDS: Record<string, SeasonField> = {
  kc: 'kcIni',
  stages: 'stageIni',
  rootDepth: 'rootMin',
  p: 'cropP',
};

/** A season's issue path (below its index) to the form's field that shows it. */
function fieldOf(path: string, message: string): SeasonField {
  const [head, ...rest] = path.split('.');
  switch (head) {
    case 'name':
    case 'emergence':
    case 'p':
    case 'efficiency':
      return head;
    case 'polygon':
      return 'area';
    case 'soil':
      return rest[0] === 'wiltingPoint' ? 'wiltingPoint' : 'fieldCapacity';
    case 'crop': {
      const named = rest[0] ?? /^(\w+):/.exec(message)?.[1];
      return (named && CUSTOM_CROP_FIELDS[named]) || 'crop';
    }
    default:
      return 'name';
  }
}

/**
 * The contract's messages, English and with their bounds, each turned into a message key the page
 * says in its own language (the server answers with the same messages).
 */
export const SEASON_ERROR_KEYS = [
  'number',
  'name',
  'nameTaken',
  'areaTaken',
  'areaUnknown',
  'crop',
  'kc',
  'stage',
  'seasonLength',
  'rootDepth',
  'rootOrder',
  'p',
  'soil',
  'soilOrder',
  'waterContent',
  'efficiency',
  'date',
  'emergenceYear',
] as const;
export type SeasonErrorKey = (typeof SEASON_ERROR_KEYS)[number];
export const isSeasonErrorKey = (value: string): value is SeasonErrorKey =>
  (SEASON_ERROR_KEYS as readonly string[]).includes(value);

const MESSAGE_KEYS: [RegExp, SeasonErrorKey][] = [
  [/crop area already|whole circle already/, 'areaTaken'],
  [/names must differ/, 'nameTaken'],
  [/season name|Enter the season/, 'name'],
  [/crop area|the machine.s map/, 'areaUnknown'],
  [/Kc/, 'kc'],
  [/season lasts/, 'seasonLength'],
  [/growth stage|stages/, 'stage'],
  [/emergence cannot exceed/, 'rootOrder'],
  [/rooting depth/i, 'rootDepth'],
  [/depletion p/, 'p'],
  [/Field capacity must/, 'soilOrder'],
  [/water content/i, 'waterContent'],
  [/efficiency/, 'efficiency'],
  [/emergence date must lie/, 'emergenceYear'],
  [/date|calendar/, 'date'],
  [/Unknown crop|Choose a crop/, 'crop'],
  [/Unknown soil|Choose a soil/, 'soil'],
];

export function messageKey(message: string): SeasonErrorKey | undefined {
  return MESSAGE_KEYS.find(([pattern]) => pattern.test(message))?.[1];
}

/** Issues of one season (paths below it) by field; the first problem of a field is shown. */
export function fieldErrors(issues: readonly ValidationIssue[]): SeasonFormErrors {
  const errors: SeasonFormErrors = {};
  for (const { path, message } of issues) {
    const field = fieldOf(path, message);
    errors[field] ??= messageKey(message) ?? message;
  }
  return errors;
}

/**
 * The server's issues (`body.3.soil.fieldCapacity`) that concern the season at `index` of the
 * body, by field; an issue of another season, or of the body as a whole, goes to `other`.
 */
export function serverErrors(
  issues: readonly ValidationIssue[],
  index: number,
): { fields: SeasonFormErrors; other: string[] } {
  const own: ValidationIssue[] = [];
  const other: string[] = [];
  for (const issue of issues) {
    const match = /^body\.(\d+)\.?(.*)$/.exec(issue.path);
    if (match && Number(match[1]) === index) own.push({ path: match[2] ?? '', message: issue.message });
    else other.push(issue.message);
  }
  return { fields: fieldErrors(own), other };
}
