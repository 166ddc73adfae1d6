import { type ComponentType, useEffect, useState } from 'react';
import type { WeatherStation } from '@pivot/contracts';
import { loadCataloguePart } from '@/i18n/i18n';
import { afterFirstScreen } from '@/lib/after-first-screen';
import { useConnection } from '@/lib/connection';

type Facts = ComponentType<{ station: WeatherStation }>;

let loaded: Facts | undefined;
let loading: Promise<Facts> | undefined;
const load = () =>
  (loading ??= (async () => {
    await afterFirstScreen();
    const [code] = await Promise.all([import('../weather-station-facts'), loadCataloguePart('machineCards')]);
    return (loaded = code.WeatherStationFacts);
  })().catch((error: unknown) => {
    // Not kept: fetched again when the connection comes back.
    loading = undefined;
    throw error;
  }));

/**
 * A weather station's readings for its marker's popup (../weather-station-facts.tsx), with their
 * texts (the catalogue's `machineCards`): fetched once the page has shown its first data (as the
 * cards below the map are), so the map does not wait for them; undefined until then, when the
 * markers have no popup yet.
 */
export function useWeatherStationFacts(wanted: boolean): Facts | undefined {
  const [facts, setFacts] = useState(() => loaded);
  const online = useConnection().online;
  useEffect(() => {
    if (facts || !wanted || !online) return;
    let current = true;
    load().then(
      (code) => current && setFacts(() => code),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [facts, wanted, online]);
  return facts;
}
