import {
  type CropSeason,
  type CropSeasons,
  type CropSeasonsQuery,
  type GeoJson,
  type ValidationIssue,
  cropAreaNames,
  seasonYear,
} from '@pivot/contracts';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import type { ClientInfo, SignedInUser } from '../../http/request-context';
import type { LogsService } from '../logs';
import { type SprinklersService, loggedMachine } from '../sprinklers';
import { cropSeasonValues, presentCropSeason } from './crop-seasons.presenter';
import {
  type CropSeasonValues,
  deleteCropSeasons,
  insertCropSeasons,
  listCropSeasons,
  listCropSeasonsOfYears,
  lockCropSeasonsOf,
  updateCropSeason,
} from './crop-seasons.repository';

export type CropSeasonsServiceDeps = { db: Database; sprinklers: SprinklersService; logs: LogsService };

/** The key of a season's identity within its machine: its year and its area (null: the whole circle). */
function areaOfYear(year: number, polygon: string | null): string {
  return polygon === null ? `${year}` : `${year}:${polygon}`;
}

/**
 * A machine's crop seasons, for the users who may use the machine. Setting them replaces the
 * seasons of the years the request names and keeps every other year's (docs/advice.md).
 */
export class CropSeasonsService {
  constructor(private readonly deps: CropSeasonsServiceDeps) {}

  /** Every season of the machine, oldest first. */
  async list(actor: SignedInUser, sprinklerId: number): Promise<CropSeason[]> {
    const sprinkler = await this.deps.sprinklers.accessible(actor, sprinklerId);
    const rows = await listCropSeasons(this.deps.db, sprinkler.id);
    return rows.map(presentCropSeason);
  }

  /**
   * Replaces the seasons of each year present in `seasons` (and of `query.year`, so that a year can
   * be emptied) with `seasons`; other years are kept. A season whose year and area were already
   * set keeps its identity (and, later, its records); the others of those years are removed.
   */
  async replace(
    actor: SignedInUser,
    sprinklerId: number,
    seasons: CropSeasons,
    query: CropSeasonsQuery,
    client: ClientInfo,
  ): Promise<CropSeason[]> {
    const { db, sprinklers, logs } = this.deps;
    const sprinkler = await sprinklers.controllable(actor, sprinklerId);
    refuseUnknownCropAreas(sprinkler.areaMap, seasons);
    const namedYears = [...seasons.map(seasonYear), ...(query.year === undefined ? [] : [query.year])];
    const years = [...new Set(namedYears)].sort((a, b) => a - b);
    return db.transaction(async (tx) => {
      await lockCropSeasonsOf(tx, sprinkler.id);
      const stored = new Map(
        (await listCropSeasonsOfYears(tx, sprinkler.id, years)).map((row) => [areaOfYear(row.year, row.polygon), row]),
      );
      const updates: { id: number; values: CropSeasonValues }[] = [];
      const inserts: CropSeasonValues[] = [];
      for (const season of seasons) {
        const values = cropSeasonValues(season);
        const row = stored.get(areaOfYear(values.year, values.polygon ?? null));
        if (row) updates.push({ id: row.id, values });
        else inserts.push(values);
      }
      const updatedIds = new Set(updates.map((update) => update.id));
      await deleteCropSeasons(
        tx,
        [...stored.values()].filter((row) => !updatedIds.has(row.id)).map((row) => row.id),
      );
      for (const { id, values } of updates) await updateCropSeason(tx, id, values);
      await insertCropSeasons(tx, sprinkler.id, inserts);
      if (years.length > 0) {
        await logs.record(tx, {
          eventType: 'sprinkler_crop_seasons_updated',
          actorUserId: actor.id,
          sprinkler: loggedMachine(sprinkler),
          event: years.join(', '),
          ip: client.ip,
        });
      }
      return (await listCropSeasons(tx, sprinkler.id)).map(presentCropSeason);
    });
  }
}

/** A season's area must be a crop area of the machine's map as it is now; null is the whole circle. */
function refuseUnknownCropAreas(areaMap: GeoJson, seasons: CropSeasons): void {
  const areas = new Set(cropAreaNames(areaMap));
  const issues: ValidationIssue[] = [];
  seasons.forEach((season, index) => {
    if (season.polygon !== null && !areas.has(season.polygon)) {
      issues.push({
        path: `body.${index}.polygon`,
        message: `The machine's map has no crop area named "${season.polygon}"`,
      });
    }
  });
  if (issues.length > 0) throw new AppError('crop_area_not_found', { issues });
}
