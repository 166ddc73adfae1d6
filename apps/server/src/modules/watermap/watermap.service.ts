import { METRES_PER_DEGREE, type WatermapQuery, type WatermapResponse, parseDottedDate } from '@pivot/contracts';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import type { SignedInUser } from '../../http/request-context';
import type { SprinklersService } from '../sprinklers';
import { WATER_GRID_STEP_M } from './water-accounting';
import { dayOfYear } from './day-of-year';
import { waterPerCell } from './watermap.repository';

const LONGEST_RANGE_DAYS = 366;

function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

export class WatermapService {
  constructor(
    private readonly db: Database,
    private readonly sprinklers: SprinklersService,
  ) {}

  /** The water a machine applied over local calendar days, per grid cell centre: lat, lng, mm. */
  async watermap(user: SignedInUser, sprinklerId: number, query: WatermapQuery): Promise<WatermapResponse> {
    const sprinkler = await this.sprinklers.accessible(user, sprinklerId);
    const start = parseDottedDate(query.start)!;
    const stop = parseDottedDate(query.stop)!;
    if ((stop.getTime() - start.getTime()) / 86_400_000 >= LONGEST_RANGE_DAYS) throw new AppError('validation_error');
    const cells = await waterPerCell(this.db, sprinkler.internalId, dayOfYear(start), dayOfYear(stop));
    const centreLat = Number(sprinkler.lat);
    const centreLng = Number(sprinkler.lng);
    const metresToLat = 1 / METRES_PER_DEGREE;
    const metresToLng = metresToLat / Math.cos((centreLat * Math.PI) / 180);
    const data = cells
      .filter((cell) => cell.depth >= 0.05)
      .map((cell): [number, number, number] => [
        round(centreLat + (cell.y + 0.5) * WATER_GRID_STEP_M * metresToLat, 7),
        round(centreLng + (cell.x + 0.5) * WATER_GRID_STEP_M * metresToLng, 7),
        round(cell.depth, 1),
      ]);
    return { data, step: WATER_GRID_STEP_M };
  }
}
