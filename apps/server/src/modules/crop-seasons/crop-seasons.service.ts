import {
  type AreaMapExport,
  type AreaMapFile,
  type AreaMapImportResult,
  type CropSeason,
  type CropSeasons,
  type CropSeasonsQuery,
  type GeoJson,
  type ValidationIssue,
  cropAreaNames,
  seasonYear,
} from '@pivot/contracts';
import type { Database, Transaction } from '../../db/client';
import { AppError } from '../../errors';
import type { ClientInfo, SignedInUser } from '../../http/request-context';
import type { LogsService } from '../logs';
import { type SprinklerRow, type SprinklersService, loggedMachine } from '../sprinklers';
import { areaMapFileOf, areaMapOfFile, areasOfMap, cropSeasonsOfFile } from './area-map-file';
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
import type { CropSeasonRow } from './crop-seasons.table';

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
    const sprinkler = await this.deps.sprinklers.controllable(actor, sprinklerId);
    refuseUnknownCropAreas(sprinkler.areaMap, seasons);
    const years = [...seasons.map(seasonYear), ...(query.year === undefined ? [] : [query.year])];
    return this.deps.db.transaction(async (tx) => {
      await lockCropSeasonsOf(tx, sprinkler.id);
      await this.replaceSeasons(tx, { actor, sprinkler, client }, seasons, years, () => true);
      return (await listCropSeasons(tx, sprinkler.id)).map(presentCropSeason);
    });
  }

  /** The machine's area map as a file, each crop area with its seasons (docs/advice.md). */
  async exportAreaMap(actor: SignedInUser, sprinklerId: number): Promise<AreaMapExport> {
    const sprinkler = await this.deps.sprinklers.accessible(actor, sprinklerId);
    const rows = await listCropSeasons(this.deps.db, sprinkler.id);
    return areaMapFileOf(sprinkler.areaMap, rows.map(presentCropSeason));
  }

  /**
   * Stores an area-map file as the machine's map and the seasons it carries as the machine's:
   * for each year the file has a season of, the seasons of the new map's areas (its crop areas
   * and the whole circle) become the file's; a season of an area the new map does not have is
   * kept, as is every season when the file carries none. All or nothing, in one transaction.
   */
  async importAreaMap(
    actor: SignedInUser,
    sprinklerId: number,
    file: AreaMapFile,
    client: ClientInfo,
  ): Promise<AreaMapImportResult> {
    const { db, sprinklers, logs } = this.deps;
    const sprinkler = await sprinklers.controllable(actor, sprinklerId);
    const seasons = cropSeasonsOfFile(file);
    const areaMap = areaMapOfFile(file);
    const areas = areasOfMap(areaMap);
    const result = await db.transaction(async (tx) => {
      await lockCropSeasonsOf(tx, sprinkler.id);
      const updated = await sprinklers.setField(tx, sprinkler.id, areaMap);
      await logs.record(tx, {
        eventType: 'sprinkler_updated',
        actorUserId: actor.id,
        sprinkler: loggedMachine(updated),
        event: actor.email,
        details: 'area map imported',
        ip: client.ip,
      });
      if (seasons) {
        await this.replaceSeasons(tx, { actor, sprinkler, client }, seasons, seasons.map(seasonYear), (row) =>
          areas.has(row.polygon),
        );
      }
      return { areaMap: updated.areaMap, seasons: (await listCropSeasons(tx, sprinkler.id)).map(presentCropSeason) };
    });
    sprinklers.machinesChanged();
    return result;
  }

  /**
   * Replaces the stored seasons of `years` that `replaceable` accepts with `seasons`, logging the
   * change. A season whose year and area were already set keeps its identity (and, later, its
   * records); the replaceable others of those years are removed. The caller holds the lock.
   */
  private async replaceSeasons(
    tx: Transaction,
    by: { actor: SignedInUser; sprinkler: SprinklerRow; client: ClientInfo },
    seasons: CropSeasons,
    namedYears: number[],
    replaceable: (row: CropSeasonRow) => boolean,
  ): Promise<void> {
    const years = [...new Set(namedYears)].sort((a, b) => a - b);
    const stored = new Map(
      (await listCropSeasonsOfYears(tx, by.sprinkler.id, years))
        .filter(replaceable)
        .map((row) => [areaOfYear(row.year, row.polygon), row]),
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
    await insertCropSeasons(tx, by.sprinkler.id, inserts);
    if (years.length > 0) {
      await this.deps.logs.record(tx, {
        eventType: 'sprinkler_crop_seasons_updated',
        actorUserId: by.actor.id,
        sprinkler: loggedMachine(by.sprinkler),
        event: years.join(', '),
        ip: by.client.ip,
      });
    }
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
