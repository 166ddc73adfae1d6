import { AreaMapExportSchema, AreaMapFileSchema, AreaMapImportResultSchema } from '../area-map-file';
import { IdParamsSchema, NoContentSchema } from '../common';
import { CropSeasonListSchema, CropSeasonsQuerySchema, CropSeasonsSchema } from '../crop-seasons';
import { endpoint } from '../endpoint';
import { FarmRecordBodySchema, FarmRecordListSchema, FarmRecordParamsSchema, FarmRecordSchema } from '../farm-records';
import {
  ApplicationDepthBodySchema,
  ApplicationDepthSchema,
  NextIrrigationListSchema,
  ProgramFromAdviceSchema,
  WaterBalanceQuerySchema,
  WaterBalanceSchema,
  WaterBalanceSeasonSchema,
} from '../water-balance';

/* Irrigation advice (docs/advice.md): a machine's water balance, its crop seasons, the farm's records. */
const tag = 'advice';

/** Every machine the user is granted sees its advice; changing what it rests on takes control. */
const readRefusals = ['sprinkler_not_found'] as const;
const writeRefusals = ['sprinkler_not_found', 'watch_only'] as const;

export const waterBalance = endpoint({
  method: 'GET',
  path: '/sprinkler/:id/water-balance/',
  params: IdParamsSchema,
  query: WaterBalanceQuerySchema,
  answer: WaterBalanceSchema,
  errors: [...readRefusals, 'date_in_future'],
  tag,
  summary: "A machine's water balance on a day: each crop area's depletion and what to do",
});

export const waterBalanceSeason = endpoint({
  method: 'GET',
  path: '/sprinkler/:id/water-balance/season/',
  params: IdParamsSchema,
  query: WaterBalanceQuerySchema,
  answer: WaterBalanceSeasonSchema,
  errors: [...readRefusals, 'date_in_future'],
  tag,
  summary: 'A machine\'s water balance day by day over its season (docs/advice.md, "The season series")',
});

export const nextIrrigation = endpoint({
  method: 'GET',
  path: '/sprinkler/next-irrigation/',
  query: WaterBalanceQuerySchema,
  answer: NextIrrigationListSchema,
  errors: ['date_in_future'],
  tag,
  summary: "The next irrigation of each machine the user sees, the machines table's column",
});

export const applicationDepth = endpoint({
  method: 'GET',
  path: '/sprinkler/:id/application-depth/',
  params: IdParamsSchema,
  answer: ApplicationDepthSchema,
  errors: readRefusals,
  tag,
  summary: "The depth a machine's pass applies at a percent timer, set or learned",
});

export const setApplicationDepth = endpoint({
  method: 'PATCH',
  path: '/sprinkler/:id/application-depth/',
  params: IdParamsSchema,
  body: ApplicationDepthBodySchema,
  answer: ApplicationDepthSchema,
  errors: readRefusals,
  tag,
  summary: "Sets a machine's application depth, as its other settings (administrators)",
});

export const programFromAdvice = endpoint({
  method: 'GET',
  path: '/sprinkler/:id/program-from-advice/',
  params: IdParamsSchema,
  answer: ProgramFromAdviceSchema,
  errors: readRefusals,
  tag,
  summary: "A program drawn from the advice, each sector's rate from its crop; storing it is the programs' POST",
});

export const cropSeasons = endpoint({
  method: 'GET',
  path: '/sprinkler/:id/crop-seasons/',
  params: IdParamsSchema,
  answer: CropSeasonListSchema,
  errors: readRefusals,
  tag,
  summary: "A machine's crop seasons",
});

export const replaceCropSeasons = endpoint({
  method: 'PUT',
  path: '/sprinkler/:id/crop-seasons/',
  params: IdParamsSchema,
  query: CropSeasonsQuerySchema,
  body: CropSeasonsSchema,
  answer: CropSeasonListSchema,
  errors: [...writeRefusals, 'crop_area_not_found'],
  tag,
  summary: "Replaces a machine's crop seasons",
});

export const areaMap = endpoint({
  method: 'GET',
  path: '/sprinkler/:id/area-map/',
  params: IdParamsSchema,
  answer: AreaMapExportSchema,
  errors: readRefusals,
  tag,
  summary: "A machine's area map as a GeoJSON file, each crop area with its crop seasons (docs/advice.md)",
});

export const importAreaMap = endpoint({
  method: 'PUT',
  path: '/sprinkler/:id/area-map/',
  params: IdParamsSchema,
  body: AreaMapFileSchema,
  answer: AreaMapImportResultSchema,
  errors: [...writeRefusals, 'invalid_crop_seasons', 'crop_area_not_found', 'too_many_corners'],
  tag,
  summary: "Imports an area-map file as the machine's map, with the crop seasons it carries (docs/advice.md)",
  description: 'A file refused stores nothing; past 10,000 corners in all it is too_many_corners.',
});

export const farmRecords = endpoint({
  method: 'GET',
  path: '/sprinkler/:id/records/',
  params: IdParamsSchema,
  answer: FarmRecordListSchema,
  errors: readRefusals,
  tag,
  summary: "The farm's own records of the machine, the newest day first (docs/advice.md)",
});

/** A record's day and area are checked against the machine's map, programs and probes. */
const recordRefusals = [...writeRefusals, 'record_date_in_future', 'record_area_not_found', 'probe_not_found'] as const;

export const addFarmRecord = endpoint({
  method: 'POST',
  path: '/sprinkler/:id/records/',
  params: IdParamsSchema,
  body: FarmRecordBodySchema,
  answer: FarmRecordSchema,
  status: 201,
  errors: recordRefusals,
  tag,
  summary: 'Records a rain gauge reading, water from another source or a probe reading (control)',
});

export const updateFarmRecord = endpoint({
  method: 'PUT',
  path: '/sprinkler/:id/records/:recordId/',
  params: FarmRecordParamsSchema,
  body: FarmRecordBodySchema,
  answer: FarmRecordSchema,
  errors: [...recordRefusals, 'record_not_found'],
  tag,
  summary: 'Changes a farm record',
});

export const removeFarmRecord = endpoint({
  method: 'DELETE',
  path: '/sprinkler/:id/records/:recordId/',
  params: FarmRecordParamsSchema,
  answer: NoContentSchema,
  status: 204,
  errors: [...writeRefusals, 'record_not_found'],
  tag,
  summary: 'Removes a farm record',
});
