import type { WaterBalance } from '@pivot/contracts';
import type { TFunction } from 'i18next';
import type { Locale } from '@/config/locales';
import { dateTimeFormat } from '@/i18n/use-date-time-format';
import { depletionShare } from './soil-water-scale';
import { numberFormat } from '@/i18n/number-format';

type Cell = WaterBalance['cells'][number];

/** A dd.mm.yyyy day `daysBefore` days earlier, as yyyy-mm-dd. */
function isoDay(dotted: string, daysBefore = 0): string {
  const [day, month, year] = dotted.split('.').map(Number);
  return new Date(Date.UTC(year!, month! - 1, day! - daysBefore)).toISOString().slice(0, 10);
}

/**
 * What hovering or tapping a Soil water cell tells: its depletion, its TAW and the share, then the
 * day it last got the machine's water and the station's last rain, in the app's date style.
 */
export function soilWaterCellText(t: TFunction, locale: Locale, balance: WaterBalance, cell: Cell): string {
  const [, , depletion, taw, lastWater] = cell;
  const number = (value: number) => numberFormat(locale, { maximumFractionDigits: 1 }).format(value);
  const { day } = dateTimeFormat(locale);
  const none = t('soilWater.cellNone');
  const state = t('soilWater.cell', {
    depletion: number(depletion),
    taw: number(taw),
    share: Math.round(depletionShare(depletion, taw) * 100),
  });
  const water = t('soilWater.cellWater', {
    water: lastWater === null ? none : day(isoDay(balance.date, lastWater)),
    rain: balance.lastRain === null ? none : day(isoDay(balance.lastRain)),
  });
  return `${state} · ${water}`;
}
