/// <reference types="@geoman-io/leaflet-geoman-free" />
import * as L from 'leaflet';

type Leaflet = typeof L;
type WithGeoman = Leaflet & { PM?: { Map: new (map: L.Map) => L.PM.PMMap } };

let loading: Promise<void> | undefined;

/**
 * Geoman (drawing and editing vertices, about 280 kB) loads only when the sector editor shows
 * its map. It is a classic script that extends the global `L`, which Leaflet's own build sets;
 * the line below makes sure of it, whatever the bundler did with Leaflet.
 */
export function loadGeoman(): Promise<void> {
  loading ??= (async () => {
    const global = globalThis as unknown as { L?: Leaflet };
    global.L ??= ('default' in L ? (L as { default: Leaflet }).default : L) as Leaflet;
    await import('@geoman-io/leaflet-geoman-free');
    await import('@geoman-io/leaflet-geoman-free/dist/leaflet-geoman.css');
  })();
  return loading;
}

/** Geoman gives maps created after it loaded their `pm`; a map created before gets it here. */
export function geomanOf(map: L.Map): L.PM.PMMap {
  if (!map.pm) {
    const global = globalThis as unknown as { L?: WithGeoman };
    map.pm = new global.L!.PM!.Map(map);
    map.pm.setGlobalOptions({});
  }
  return map.pm;
}
