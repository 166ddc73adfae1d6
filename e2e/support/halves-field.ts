import { type LatLng, type ProgramData, positionAt } from '@pivot/contracts';

/** A half of the circle round `centre`, clockwise from `from`°, its arc a corner every 10°. */
function half(centre: LatLng, from: number, radius: number): [number, number][] {
  const arc: [number, number][] = [];
  for (let bearing = from; bearing <= from + 180; bearing += 10) arc.push(positionAt(centre, bearing, radius));
  const pivot: [number, number] = [centre.lng, centre.lat];
  return [pivot, ...arc, pivot];
}

const polygon = (ring: [number, number][]) => ({ type: 'Polygon' as const, coordinates: [ring] });

/**
 * A machine's field in two halves round `centre` (`radius` a little beyond the arm), for the
 * tests that need a machine due water now: the program's sectors "Wschód" (east) and "Zachód"
 * (west), the crop areas under them ("Ziemniaki", "Lucerna"), and their seasons, as
 * `PUT …/crop-seasons/` takes them: shallow roots on sand to the east (water due at once) and
 * roots 3 m deep on loam to the west (nothing due before the season ends), emerged on `emergence`
 * (dd.mm.yyyy).
 */
export function halvesField(centre: LatLng, radius: number) {
  const east = half(centre, 0.25, radius);
  const west = half(centre, 180.25, radius);
  const sector = (name: string, ring: [number, number][]) => ({
    type: 'Feature' as const,
    geometry: polygon(ring),
    properties: { name, rate: 14 },
  });
  const crop = (name: string, ring: [number, number][]) => ({
    type: 'Feature',
    geometry: polygon(ring),
    properties: { kind: 'crop', crop: 'potatoes', name },
  });
  const programData: ProgramData = {
    type: 'FeatureCollection',
    features: [sector('Wschód', east), sector('Zachód', west)],
  };
  const areaMap = { type: 'FeatureCollection', features: [crop('Ziemniaki', east), crop('Lucerna', west)] };
  const stages = [10, 10, 40, 30];
  const seasons = (emergence: string) => [
    {
      name: 'Ziemniaki płytkie',
      polygon: 'Ziemniaki',
      crop: { kc: [1.2, 1.2, 1.2], stages, rootDepth: [0.05, 0.05], p: 0.1 },
      emergence,
      soil: 'sand',
    },
    {
      name: 'Lucerna głęboka',
      polygon: 'Lucerna',
      crop: { kc: [0.5, 0.5, 0.5], stages, rootDepth: [3, 3], p: 0.8 },
      emergence,
      soil: 'loam',
    },
  ];
  return { programData, areaMap, seasons };
}
