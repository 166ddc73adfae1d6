import type { GeoJson, ProgramData } from '@pivot/contracts';
import { addDays } from '../../src/time/local-day';
import { halfCircle } from './fixtures';
import { dotted } from './weather-days';

/**
 * A machine's field in two halves, east and west of its centre, for the advice's and the
 * autopilot's tests: the crop areas `East` and `West`, a program of sectors `Wschód` and `Zachód`
 * over them, and seasons that make the east half due at once (shallow roots on sand) and the west
 * one not this season (roots 3 m deep on loam).
 */
export function halvesField(centre: { lat: number; lng: number }, armLength: number) {
  /** A half of the circle, a little beyond the arm, clockwise from `from`°. */
  const half = (from: number) => halfCircle(centre, from, armLength * 1.2);
  const polygon = (ring: [number, number][]) => ({ type: 'Polygon' as const, coordinates: [ring] });
  const crop = (name: string, from: number) => ({
    type: 'Feature' as const,
    geometry: polygon(half(from)),
    properties: { kind: 'crop', crop: 'potatoes', name },
  });
  const areaMap: GeoJson = { type: 'FeatureCollection', features: [crop('East', 0.25), crop('West', 180.25)] };
  const program: ProgramData = {
    type: 'FeatureCollection',
    features: [
      { type: 'Feature', geometry: polygon(half(0.25)), properties: { name: 'Wschód', rate: 14 } },
      { type: 'Feature', geometry: polygon(half(180.25)), properties: { name: 'Zachód', rate: 14 } },
    ],
  };
  /** The two seasons, emerged six days before `today` (YYYY-MM-DD), as `PUT …/crop-seasons/` takes them. */
  const seasons = (today: string) => {
    const stages = [10, 10, 40, 30];
    return [
      {
        name: 'East',
        polygon: 'East',
        crop: { kc: [1.2, 1.2, 1.2], stages, rootDepth: [0.05, 0.05], p: 0.1 },
        emergence: dotted(addDays(today, -6)),
        soil: 'sand',
      },
      {
        name: 'West',
        polygon: 'West',
        crop: { kc: [0.5, 0.5, 0.5], stages, rootDepth: [3, 3], p: 0.8 },
        emergence: dotted(addDays(today, -6)),
        soil: 'loam',
      },
    ];
  };
  return { areaMap, program, seasons };
}
