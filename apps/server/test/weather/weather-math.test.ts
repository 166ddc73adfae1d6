import { describe, expect, it } from 'vitest';
import { armLine, boundingBox, distanceM } from '../../src/geo/geo';
import { startOfLocalDay } from '../../src/time/local-day';
import {
  extraterrestrialRadiation,
  referenceEvapotranspiration,
} from '../../src/modules/weather/reference-evapotranspiration';

/** The station day of FAO-56 example 18, without its wind and radiation. */
const BRUSSELS_6_JULY = {
  dayOfYear: 187,
  latitudeDegrees: 50.8,
  elevationM: 100,
  minTemperature: 12.3,
  maxTemperature: 21.5,
  minHumidity: 63,
  maxHumidity: 84,
};

describe('FAO-56 reference evapotranspiration', () => {
  it('gives the extraterrestrial radiation of FAO-56 example 8 (20°S, 3 September): 32.2 MJ/m²/day', () => {
    expect(extraterrestrialRadiation(-20, 246)).toBeCloseTo(32.2, 1);
  });

  it('gives the ET₀ of FAO-56 example 18 (Brussels, 6 July): 3.9 mm/day', () => {
    const evapotranspiration = referenceEvapotranspiration({ ...BRUSSELS_6_JULY, wind: 2.078, solarRadiation: 22.07 });
    expect(evapotranspiration).toBeCloseTo(3.9, 1);
  });

  it('estimates radiation from the temperature range and assumes 2 m/s wind when the station lacks them', () => {
    const day = BRUSSELS_6_JULY;
    const estimated = referenceEvapotranspiration({ ...day, wind: undefined, solarRadiation: undefined });
    expect(estimated).toBeGreaterThan(2.5);
    expect(estimated).toBeLessThan(5);
    expect(referenceEvapotranspiration({ ...day, wind: undefined, solarRadiation: 22.07 })).toBeCloseTo(
      referenceEvapotranspiration({ ...day, wind: 2, solarRadiation: 22.07 }),
      10,
    );
  });

  it('never answers a negative evapotranspiration on a cold, wet winter day', () => {
    const winter = referenceEvapotranspiration({
      dayOfYear: 10,
      latitudeDegrees: 52.4,
      elevationM: 100,
      minTemperature: -8,
      maxTemperature: -6,
      minHumidity: 98,
      maxHumidity: 100,
      wind: 0,
      solarRadiation: 0.5,
    });
    expect(winter).toBeGreaterThanOrEqual(0);
  });
});

describe('local calendar days', () => {
  it.each([
    ['winter, UTC+1', '2026-01-15T10:00:00Z', '2026-01-14T23:00:00.000Z'],
    ['summer, UTC+2', '2026-07-15T10:00:00Z', '2026-07-14T22:00:00.000Z'],
    ['just after local midnight', '2026-07-14T22:30:00Z', '2026-07-14T22:00:00.000Z'],
    ['the day summer time starts', '2026-03-29T12:00:00Z', '2026-03-28T23:00:00.000Z'],
  ])('finds the start of the Warsaw day in %s', (_label, now, start) => {
    expect(startOfLocalDay('Europe/Warsaw', new Date(now)).toISOString()).toBe(start);
  });
});

describe('geometry', () => {
  const centre = { lat: 52.2, lng: 17.1 };

  it('draws the arm from the centre along its heading', () => {
    const east = armLine(centre, 90, 500);
    expect(east.coordinates[0]).toEqual([17.1, 52.2]);
    const [lng, lat] = east.coordinates[1]!;
    expect(lat).toBeCloseTo(52.2, 6);
    expect(distanceM(centre, { lat: lat!, lng: lng! })).toBeCloseTo(500, 0);
    const [northLng, northLat] = armLine(centre, 0, 500).coordinates[1]!;
    expect(northLng).toBeCloseTo(17.1, 6);
    expect(northLat).toBeGreaterThan(52.2);
  });

  it('bounds a circle with a box that contains its edge', () => {
    const box = boundingBox(centre, 5000);
    const [lng, lat] = armLine(centre, 45, 5000).coordinates[1]!;
    expect(lat).toBeLessThanOrEqual(box.maxLat);
    expect(lng).toBeLessThanOrEqual(box.maxLng);
    expect(distanceM(centre, { lat: box.maxLat, lng: centre.lng })).toBeCloseTo(5000, -1);
  });
});
