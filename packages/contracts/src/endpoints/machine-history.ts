import { AsAppliedQuerySchema } from '../as-applied';
import { IdParamsSchema } from '../common';
import { endpoint } from '../endpoint';
import { ReportsCsvQuerySchema } from '../reports-csv';
import { WatermapQuerySchema, WatermapResponseSchema } from '../watermap';

/* What a machine has done over a range of days: its watermap and its reports as a file. */
const tag = 'sprinklers';

export const watermap = endpoint({
  method: 'GET',
  path: '/sprinkler/:id/watermap/',
  params: IdParamsSchema,
  query: WatermapQuerySchema,
  answer: WatermapResponseSchema,
  errors: ['sprinkler_not_found'],
  tag,
  summary: 'The water a machine applied over a range of days, cell by cell',
});

export const reportsCsv = endpoint({
  method: 'GET',
  path: '/sprinkler/:id/reports.csv',
  params: IdParamsSchema,
  query: ReportsCsvQuerySchema,
  produces: 'text/csv',
  errors: ['sprinkler_not_found'],
  tag,
  summary: "The machine's reports over a range of days, as CSV (RFC 4180, times in ISO 8601 UTC)",
});

export const asAppliedGeoJson = endpoint({
  method: 'GET',
  path: '/sprinkler/:id/as-applied.geojson',
  params: IdParamsSchema,
  query: AsAppliedQuerySchema,
  produces: 'application/geo+json',
  errors: ['sprinkler_not_found'],
  tag,
  summary: 'The water a machine applied over a range of days, as an as-applied map in GeoJSON',
  description:
    'A FeatureCollection (RFC 7946, WGS 84): each watered grid cell as a polygon with MACHINE, DEPTH_MM, VOL_M3, START_UTC and END_UTC.',
});

export const asAppliedShapefile = endpoint({
  method: 'GET',
  path: '/sprinkler/:id/as-applied.zip',
  params: IdParamsSchema,
  query: AsAppliedQuerySchema,
  produces: 'application/zip',
  errors: ['sprinkler_not_found'],
  tag,
  summary: 'The water a machine applied over a range of days, as an as-applied map in a zipped shapefile',
  description:
    'A zip of .shp, .shx, .dbf, .prj (WGS 84) and .cpg (UTF-8): each watered grid cell as a polygon with the fields of the GeoJSON export.',
});

export const asAppliedIsoxml = endpoint({
  method: 'GET',
  path: '/sprinkler/:id/as-applied.taskdata.zip',
  params: IdParamsSchema,
  query: AsAppliedQuerySchema,
  produces: 'application/zip',
  errors: ['sprinkler_not_found'],
  tag,
  summary: 'The water a machine applied over a range of days, as ISOXML task data (ISO 11783-10 v4)',
  description:
    'A zip of TASKDATA/TASKDATA.XML (customer, farm, the field drawn on the area map or the circle the arm waters, the machine as a device, a task per day with water) and a TimeLog per task (TLGnnnnn.xml and .bin): a record per cell watered that day, at its first water of the day, at its centre, with its depth (DDI 589), the running total volume (DDI 80) and the work state (DDI 141).',
});

export const fleetAsAppliedGeoJson = endpoint({
  method: 'GET',
  path: '/sprinkler/as-applied.geojson',
  query: AsAppliedQuerySchema,
  produces: 'application/geo+json',
  errors: [],
  tag,
  summary: 'The water every machine the user may see applied over a range of days, as one as-applied map in GeoJSON',
  description:
    "As a machine's, its cells' MACHINE naming the machine; machines without water in the range are left out.",
});

export const fleetAsAppliedShapefile = endpoint({
  method: 'GET',
  path: '/sprinkler/as-applied.zip',
  query: AsAppliedQuerySchema,
  produces: 'application/zip',
  errors: [],
  tag,
  summary: 'The water every machine the user may see applied over a range of days, as a zip of shapefiles',
  description:
    'A shapefile per machine with water in the range (its files named after the machine and its id), or one empty shapefile when no machine has water.',
});

export const fleetAsAppliedIsoxml = endpoint({
  method: 'GET',
  path: '/sprinkler/as-applied.taskdata.zip',
  query: AsAppliedQuerySchema,
  produces: 'application/zip',
  errors: [],
  tag,
  summary: 'The water every machine the user may see applied over a range of days, as one ISOXML task data set',
  description:
    "As a machine's: a field and a device for each machine with water in the range, a task and a TimeLog for each of its days with water, all in one TASKDATA.XML; more than 99,999 machine-days (machines seen × days asked for) are refused as validation_error.",
});
