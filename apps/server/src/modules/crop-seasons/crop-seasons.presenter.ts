import { type CropSeason, dottedOfIsoDate, isoOfDottedDate, seasonYear } from '@pivot/contracts';
import type { CropSeasonValues } from './crop-seasons.repository';
import type { CropSeasonRow } from './crop-seasons.table';

/** A stored season as the API gives it: what was set, with p and the efficiency only when set. */
export function presentCropSeason(row: CropSeasonRow): CropSeason {
  return {
    name: row.name,
    polygon: row.polygon,
    crop: row.crop,
    emergence: dottedOfIsoDate(row.emergence),
    soil: row.soil,
    ...(row.depletionFraction === null ? {} : { p: row.depletionFraction }),
    ...(row.efficiency === null ? {} : { efficiency: row.efficiency }),
  };
}

/** A season of a request as its row's values. */
export function cropSeasonValues(season: CropSeason): CropSeasonValues {
  return {
    name: season.name,
    polygon: season.polygon,
    crop: season.crop,
    emergence: isoOfDottedDate(season.emergence),
    year: seasonYear(season),
    soil: season.soil,
    depletionFraction: season.p ?? null,
    efficiency: season.efficiency ?? null,
  };
}
