import { type CropSeason, seasonYear } from '@pivot/contracts';
import type { CropSeasonValues } from './crop-seasons.repository';
import type { CropSeasonRow } from './crop-seasons.table';

/** dd.mm.yyyy (the API's dates, as the watermap's) from the database's yyyy-mm-dd. */
function dottedDate(isoDate: string): string {
  const [year, month, day] = isoDate.split('-');
  return `${day}.${month}.${year}`;
}

function isoDate(dottedDate: string): string {
  const [day, month, year] = dottedDate.split('.');
  return `${year}-${month}-${day}`;
}

/** A stored season as the API gives it: what was set, with p and the efficiency only when set. */
export function presentCropSeason(row: CropSeasonRow): CropSeason {
  return {
    name: row.name,
    polygon: row.polygon,
    crop: row.crop,
    emergence: dottedDate(row.emergence),
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
    emergence: isoDate(season.emergence),
    year: seasonYear(season),
    soil: season.soil,
    depletionFraction: season.p ?? null,
    efficiency: season.efficiency ?? null,
  };
}
