import type { CropKey, CropSeason, SoilTextureKey } from '@pivot/contracts';
import { demoWeatherHistory } from '@pivot/simulator';
import type { App } from '../app';
import type { SignedInUser } from '../http/request-context';
import { addDays, localDate, localMidnight } from '../time/local-day';

/** A demo crop area's season: its crop and soil, and how many days before today it emerged. */
type DemoSeason = { area: string; crop: CropKey; soil: SoilTextureKey; daysAgo: number };

/**
 * The demo fleet's seasons (docs/advice.md, "The demo"), by machine and crop area of its map:
 * different crops and soils, each emerged so many days before the day the demo is set up that
 * it is in its development or mid-season stage then, whatever the date.
 */
export const DEMO_SEASONS: Readonly<Record<string, readonly DemoSeason[]>> = {
  'PIVOT-01': [{ area: 'Kukurydza', crop: 'maize-grain', soil: 'loamy-sand', daysAgo: 75 }],
  'PIVOT-02': [
    { area: 'Pszenica ozima', crop: 'winter-wheat', soil: 'silt-loam', daysAgo: 45 },
    { area: 'Burak cukrowy', crop: 'sugar-beet', soil: 'loam', daysAgo: 100 },
  ],
  'PIVOT-03': [
    { area: 'Ziemniaki', crop: 'potato', soil: 'sandy-loam', daysAgo: 60 },
    { area: 'Kukurydza', crop: 'maize-grain', soil: 'sandy-loam', daysAgo: 90 },
  ],
  'PIVOT-04': [
    { area: 'Burak cukrowy', crop: 'sugar-beet', soil: 'silt-loam', daysAgo: 95 },
    { area: 'Ziemniaki', crop: 'potato', soil: 'loamy-sand', daysAgo: 55 },
    { area: 'Pszenica jara', crop: 'spring-wheat', soil: 'loam', daysAgo: 70 },
  ],
  'PIVOT-05': [{ area: 'Kukurydza na ziarno', crop: 'maize-grain', soil: 'sand', daysAgo: 80 }],
};

/** The earliest emergence of the demo's seasons, days before today: the station history starts then. */
export const DEMO_HISTORY_DAYS = Math.max(
  ...Object.values(DEMO_SEASONS)
    .flat()
    .map((season) => season.daysAgo),
);

function dotted(isoDate: string): string {
  const [year, month, day] = isoDate.split('-');
  return `${day}.${month}.${year}`;
}

/** The seasons of one demo machine, emerged relative to `today` (YYYY-MM-DD). */
export function demoSeasonsOf(machineId: string, today: string): CropSeason[] {
  return (DEMO_SEASONS[machineId] ?? []).map((season) => ({
    name: season.area,
    polygon: season.area,
    crop: season.crop,
    emergence: dotted(addDays(today, -season.daysAgo)),
    soil: season.soil,
  }));
}

/**
 * Gives each demo machine without any season its seasons, as a user would set them. A machine
 * that has seasons (the demo's from an earlier start, or the user's own) is left as it is.
 */
export async function seedDemoSeasons(
  app: App,
  admin: SignedInUser,
  machines: readonly { sprinklerId: number; machineId: string }[],
  timeZone: string,
): Promise<void> {
  const today = localDate(timeZone, Date.now());
  const server = { ip: '', userAgent: null };
  for (const { sprinklerId, machineId } of machines) {
    if ((await app.cropSeasons.list(admin, sprinklerId)).length > 0) continue;
    const seasons = demoSeasonsOf(machineId, today);
    if (seasons.length > 0) await app.cropSeasons.replace(admin, sprinklerId, seasons, {}, server);
  }
}

/**
 * The demo stations' weather since the earliest demo emergence, before each station's first
 * stored reading: a fresh demo has only minutes of readings, and the balance runs from emergence
 * on the station's days. The simulator's weather model gives them, as the live stations report.
 * Answers how many readings were stored.
 */
export async function seedDemoWeather(app: App, timeZone: string): Promise<number> {
  const today = localDate(timeZone, Date.now());
  const from = localMidnight(timeZone, addDays(today, -DEMO_HISTORY_DAYS)).getTime();
  let stored = 0;
  for (const station of demoWeatherHistory(from, Date.now())) {
    stored += await app.weather.recordHistory(station.stationId, station.machineId, station.readings);
  }
  return stored;
}
