import {
  MAX_STATION_DAYS,
  type StationDays,
  type StationDaysQuery,
  dottedOfIsoDate,
  isoOfDottedDate,
} from '@pivot/contracts';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import type { SignedInUser } from '../../http/request-context';
import { addDays, localDate } from '../../time/local-day';
import type { SprinklersService } from '../sprinklers';
import type { SeenFrom, WeatherService } from '../weather';

type StationDaysServiceDeps = {
  db: Database;
  sprinklers: SprinklersService;
  weather: WeatherService;
  timeZone: string;
};

/**
 * A weather station's days as the soil-water balance takes them (docs/advice.md, "Weather days"),
 * for anyone who wants to redo the balance by hand. A user sees a station that shows on the map of
 * a machine they see: one within the detail's radius of it.
 */
export class StationDaysService {
  constructor(private readonly deps: StationDaysServiceDeps) {}

  async days(user: SignedInUser, stationId: string, query: StationDaysQuery): Promise<StationDays> {
    const { db, sprinklers, weather, timeZone } = this.deps;
    const first = isoOfDottedDate(query.start);
    const last = isoOfDottedDate(query.stop);
    if (!isDayRangeValid(first, last, localDate(timeZone, Date.now()))) throw new AppError('invalid_day_range');
    const seenFrom: SeenFrom = user.admin ? 'anywhere' : await sprinklers.list(user);
    const station = await weather.stationDays(db, stationId, first, last, seenFrom);
    if (!station?.position) throw new AppError('weather_station_not_found');
    return {
      id: stationId,
      // The elevation ET0 took: the station's own, or the default for one that does not report it.
      ...station.position,
      timeZone,
      days: station.days.map(({ date, referenceEvapotranspiration, wind, ...figures }) => ({
        ...figures,
        date: dottedOfIsoDate(date),
        et0: referenceEvapotranspiration,
        wind: Number.isNaN(wind) ? null : wind,
      })),
    };
  }
}

/** Days (YYYY-MM-DD) from `first` to `last` that run forwards, span at most a season and end by `today`. */
export function isDayRangeValid(first: string, last: string, today: string): boolean {
  return first <= last && last <= today && addDays(first, MAX_STATION_DAYS - 1) >= last;
}
