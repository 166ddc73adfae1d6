import { describe, expect, it } from 'vitest';
import { SoilMoisture, SoilSensor, WETTEST_ABOVE_FIELD_CAPACITY } from '../src/soil-sensor';

describe('soil moisture', () => {
  it('dries under the sun, faster by day than by night, and more slowly as the soil dries', () => {
    const day = new SoilMoisture(25, 600);
    const night = new SoilMoisture(25, 600);
    day.dry(24, 600);
    night.dry(24, 0);
    expect(day.moisture).toBeLessThan(night.moisture);
    expect(night.moisture).toBeLessThan(25);

    // A silt loam by default: field capacity 29 %, wilting point 15 %.
    const dry = new SoilMoisture(17, 600);
    const wet = new SoilMoisture(28, 600);
    dry.dry(10, 600);
    wet.dry(10, 600);
    expect(17 - dry.moisture).toBeLessThan(28 - wet.moisture);
    expect(dry.moisture).toBeGreaterThanOrEqual(15);
  });

  it('rises with water spread over its layer, and drains back towards field capacity', () => {
    const soil = new SoilMoisture(20, 600);
    soil.wet(30);
    expect(soil.moisture).toBeCloseTo(25, 6);
    // At most a little above the field capacity of 29 %, what drains within a day.
    soil.wet(500);
    expect(soil.moisture).toBe(29 + WETTEST_ABOVE_FIELD_CAPACITY);
    soil.dry(12, 0);
    expect(soil.moisture).toBeLessThan(29 + WETTEST_ABOVE_FIELD_CAPACITY);
    expect(soil.moisture).toBeGreaterThan(29);
  });

  it('gets wetter from irrigation and from its station’s rain', () => {
    const sensor = new SoilSensor({ id: 'SOIL-1', machineId: 'PIVOT-1', lat: 52.3, lng: 17, moisture: 20, depth: 30 });
    sensor.wet(12);
    expect(sensor.moisture).toBeCloseTo(22, 1);
    sensor.weather({
      ts: Date.now(),
      lat: 52.3,
      lng: 17,
      temperature: 20,
      humidity: 60,
      rain: 6,
      wind: 2,
      solarRadiation: 0,
    });
    expect(sensor.moisture).toBeCloseTo(23, 1);
  });
});
