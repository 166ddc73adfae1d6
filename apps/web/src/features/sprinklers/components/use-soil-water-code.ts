import { useEffect, useState } from 'react';
import { loadCataloguePart } from '@/i18n/i18n';
import { useConnection } from '@/lib/connection';
import type * as SoilWater from './soil-water';

type SoilWaterCode = typeof SoilWater;

let loaded: SoilWaterCode | undefined;
let loading: Promise<SoilWaterCode> | undefined;
const load = () =>
  (loading ??= Promise.all([import('./soil-water'), loadCataloguePart('machineCards')]).then(
    ([code]) => (loaded = code),
    (error: unknown) => {
      // Not kept: fetched again when the layer is shown again or the connection comes back.
      loading = undefined;
      throw error;
    },
  ));

/**
 * The Soil water layer's legend and cells (soil-water.ts) once `wanted` (the layer shown) and
 * their code and texts (the catalogue's `machineCards`) have come; undefined until then. The map and the rest of the page do not wait for it.
 */
export function useSoilWaterCode(wanted: boolean): SoilWaterCode | undefined {
  const [code, setCode] = useState(() => loaded);
  const online = useConnection().online;
  useEffect(() => {
    if (code || !wanted || !online) return;
    let current = true;
    load().then(
      (loadedCode) => current && setCode(loadedCode),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [code, wanted, online]);
  return code;
}
