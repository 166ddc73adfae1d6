import { z } from 'zod';
import type { OutboundGuard } from '../../http/outbound';

/** A coming day of the forecast: its local date (YYYY-MM-DD), ET0 and rain, mm. */
export type ForecastDay = { date: string; referenceEvapotranspiration: number; rain: number };

/** The part of Open-Meteo's answer the advice reads: `daily` with the dates and the two series. */
const ForecastAnswerSchema = z.object({
  daily: z.object({
    time: z.array(z.string().regex(/^\d{4}-\d{2}-\d{2}$/)),
    et0_fao_evapotranspiration: z.array(z.number().nullable()),
    precipitation_sum: z.array(z.number().nullable()),
  }),
});

/** A forecast is asked for again after this long (per position, rounded to 0.01°, and time zone). */
export const FORECAST_KEPT_MS = 60 * 60_000;
/** Days asked for: Open-Meteo's most. */
const FORECAST_DAYS = 16;

/**
 * The coming days' ET0 and rain at a position from an Open-Meteo-compatible service
 * (`FORECAST_URL`, docs/advice.md, "The coming days"), through the outbound guard; answers kept
 * for an hour. Null when the service does not answer, or answers what cannot be read: the advice
 * then falls back to the recent ET0 (coming-days.ts).
 */
export class ForecastClient {
  private readonly kept = new Map<string, { at: number; days: ForecastDay[] | null }>();

  constructor(
    private readonly deps: {
      url: string;
      outbound: Pick<OutboundGuard, 'get'>;
      timeZone: string;
      now?: () => number;
      onFailure?: (error: string) => void;
    },
  ) {}

  async daily(position: { lat: number; lng: number }): Promise<ForecastDay[] | null> {
    const now = (this.deps.now ?? Date.now)();
    const latitude = position.lat.toFixed(2);
    const longitude = position.lng.toFixed(2);
    const key = `${latitude},${longitude}`;
    const kept = this.kept.get(key);
    if (kept && now - kept.at < FORECAST_KEPT_MS) return kept.days;
    const url = new URL(this.deps.url);
    url.searchParams.set('latitude', latitude);
    url.searchParams.set('longitude', longitude);
    url.searchParams.set('daily', 'et0_fao_evapotranspiration,precipitation_sum');
    url.searchParams.set('timezone', this.deps.timeZone);
    url.searchParams.set('forecast_days', String(FORECAST_DAYS));
    const answer = await this.deps.outbound.get(url.toString());
    let days: ForecastDay[] | null = null;
    if (answer.ok) {
      days = readForecast(answer.body);
      if (days === null) this.deps.onFailure?.('the answer is not an Open-Meteo daily forecast');
    } else {
      this.deps.onFailure?.(answer.error);
    }
    this.kept.set(key, { at: now, days });
    return days;
  }
}

/** The days of an answer with both values; null when it is not a daily forecast. */
export function readForecast(body: string): ForecastDay[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  const result = ForecastAnswerSchema.safeParse(parsed);
  if (!result.success) return null;
  const { time, et0_fao_evapotranspiration: et0, precipitation_sum: rain } = result.data.daily;
  const days: ForecastDay[] = [];
  for (let index = 0; index < time.length; index += 1) {
    const reference = et0[index];
    if (reference === null || reference === undefined) break;
    days.push({ date: time[index]!, referenceEvapotranspiration: reference, rain: rain[index] ?? 0 });
  }
  return days;
}
