import type { SprinklerDetail } from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import { firstViewBounds } from './first-view';

/** A square field of about 600 m around 52.2 N, 17.2 E. */
const FIELD: SprinklerDetail['areaMap'] = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      properties: { kind: 'field' },
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [17.197, 52.197],
            [17.203, 52.197],
            [17.203, 52.203],
            [17.197, 52.203],
            [17.197, 52.197],
          ],
        ],
      },
    },
  ],
};

describe("the machine map's first view", () => {
  it('frames the field', () => {
    const bounds = firstViewBounds({
      areaMap: FIELD,
      lat: 52.2,
      lng: 17.2,
      weather_stations: [],
      humidity_sensors: [],
    });
    expect(bounds.getSouthWest()).toMatchObject({ lat: 52.197, lng: 17.197 });
    expect(bounds.getNorthEast()).toMatchObject({ lat: 52.203, lng: 17.203 });
  });

  it('takes in a weather station and a soil probe outside the field', () => {
    const bounds = firstViewBounds({
      areaMap: FIELD,
      lat: 52.2,
      lng: 17.2,
      weather_stations: [{ id: 'WS-1', lat: 52.21, lng: 17.19, temperature: 18, humidity: 60, rainfall: 0 }],
      humidity_sensors: [[52.195, 17.21, 31]],
    });
    expect(bounds.contains([52.21, 17.19])).toBe(true);
    expect(bounds.contains([52.195, 17.21])).toBe(true);
    expect(bounds.contains([52.203, 17.203])).toBe(true);
  });

  it('frames a kilometre around the machine when no field is drawn', () => {
    const bounds = firstViewBounds({
      areaMap: { type: 'FeatureCollection', features: [] },
      lat: 52.2,
      lng: 17.2,
      weather_stations: [],
      humidity_sensors: [],
    });
    expect(bounds.getCenter().lat).toBeCloseTo(52.2, 5);
    expect(bounds.getNorthEast().lat - bounds.getSouthWest().lat).toBeCloseTo(1000 / 111_195, 3);
  });
});
