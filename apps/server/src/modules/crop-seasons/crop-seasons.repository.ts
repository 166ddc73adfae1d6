import { and, asc, count, eq, gte, inArray, lte, max, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { areaMapDigests } from '../sprinklers';
import { type CropSeasonRow, type NewCropSeasonRow, cropSeasons } from './crop-seasons.table';

export type CropSeasonValues = Omit<NewCropSeasonRow, 'id' | 'sprinklerId' | 'createdAt' | 'updatedAt'>;

/** A machine's seasons, oldest first: by emergence, then name. */
export async function listCropSeasons(db: Queryable, sprinklerId: number): Promise<CropSeasonRow[]> {
  return db
    .select()
    .from(cropSeasons)
    .where(eq(cropSeasons.sprinklerId, sprinklerId))
    .orderBy(asc(cropSeasons.emergence), asc(cropSeasons.name), asc(cropSeasons.id));
}

/** Serialises season changes of one machine, so that two replacements of a year never interleave. */
export async function lockCropSeasonsOf(db: Queryable, sprinklerId: number): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(${CROP_SEASONS_LOCK_SPACE}, ${sprinklerId})`);
}
const CROP_SEASONS_LOCK_SPACE = 7312;

export async function listCropSeasonsOfYears(
  db: Queryable,
  sprinklerId: number,
  years: readonly number[],
): Promise<CropSeasonRow[]> {
  if (years.length === 0) return [];
  return db
    .select()
    .from(cropSeasons)
    .where(and(eq(cropSeasons.sprinklerId, sprinklerId), inArray(cropSeasons.year, [...years])));
}

export async function deleteCropSeasons(db: Queryable, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.delete(cropSeasons).where(inArray(cropSeasons.id, [...ids]));
}

export async function updateCropSeason(db: Queryable, id: number, values: CropSeasonValues): Promise<void> {
  await db
    .update(cropSeasons)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(cropSeasons.id, id));
}

export async function insertCropSeasons(
  db: Queryable,
  sprinklerId: number,
  seasons: readonly CropSeasonValues[],
): Promise<void> {
  if (seasons.length === 0) return;
  await db.insert(cropSeasons).values(seasons.map((season) => ({ ...season, sprinklerId })));
}

/**
 * Each machine with seasons emerged from `from` through `through` (ISO dates): how many, when
 * they last changed, and its area map's digest, whose crop areas decide the zones' cells; by
 * machine id. What the machines table's next irrigation keeps its answers by.
 */
export async function seasonedMachines(db: Queryable, from: string, through: string) {
  return db
    .select({
      sprinklerId: cropSeasons.sprinklerId,
      seasons: count(),
      changed: max(cropSeasons.updatedAt),
      // The map's crop areas decide the zones' cells: a redrawn map is a changed balance.
      areaMap: areaMapDigests.areaMapDigest,
    })
    .from(cropSeasons)
    .innerJoin(areaMapDigests, eq(areaMapDigests.id, cropSeasons.sprinklerId))
    .where(and(lte(cropSeasons.emergence, through), gte(cropSeasons.emergence, from)))
    .groupBy(cropSeasons.sprinklerId, areaMapDigests.areaMapDigest)
    .orderBy(sql`1`);
}
