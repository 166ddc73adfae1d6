import { GeoJsonSchema, ProgramDataSchema, isForbiddenZone } from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import { DEMO_MACHINES } from '../src/demo-fleet';
import { polygonContains, positionAt } from '../src/geo';

function areaFeatures(areaMap: unknown) {
  const parsed = GeoJsonSchema.parse(areaMap);
  if (parsed.type !== 'FeatureCollection') throw new Error('The area map should be a feature collection');
  return parsed.features.map(({ geometry, properties }) => {
    if (geometry?.type !== 'Polygon') throw new Error('Every area should be a polygon');
    return { rings: geometry.coordinates, properties: properties ?? {} };
  });
}

describe('demo fleet', () => {
  it('has five machines named in Polish on Wielkopolska farmland, arms of 250–550 m', () => {
    expect(DEMO_MACHINES.map((machine) => machine.id)).toEqual([
      'PIVOT-01',
      'PIVOT-02',
      'PIVOT-03',
      'PIVOT-04',
      'PIVOT-05',
    ]);
    expect(new Set(DEMO_MACHINES.map((machine) => machine.name)).size).toBe(5);
    expect(DEMO_MACHINES.map((machine) => machine.name)).toContain('Łąka północna');
    for (const machine of DEMO_MACHINES) {
      expect(machine.lat).toBeGreaterThanOrEqual(52.1);
      expect(machine.lat).toBeLessThanOrEqual(52.4);
      expect(machine.lng).toBeGreaterThanOrEqual(16.8);
      expect(machine.lng).toBeLessThanOrEqual(17.5);
      expect(machine.armLength).toBeGreaterThanOrEqual(250);
      expect(machine.armLength).toBeLessThanOrEqual(550);
    }
  });

  it('maps each field around its circle, with one to three crops inside', () => {
    for (const machine of DEMO_MACHINES) {
      const features = areaFeatures(machine.areaMap);
      const [field, ...crops] = features;
      expect(field!.properties).toEqual({ kind: 'field', name: machine.name });
      for (let bearing = 0; bearing < 360; bearing += 5) {
        expect(polygonContains(field!.rings, positionAt(machine, bearing, machine.armLength))).toBe(true);
      }
      expect(crops.length).toBeGreaterThanOrEqual(1);
      expect(crops.length).toBeLessThanOrEqual(3);
      for (const crop of crops) {
        expect(crop.properties.kind).toBe('crop');
        expect(['maize', 'potatoes', 'sugar beet', 'wheat']).toContain(crop.properties.crop);
        for (const position of crop.rings[0]!) {
          expect(polygonContains(field!.rings, position)).toBe(true);
        }
      }
    }
  });

  it('gives each machine a program of two to four sectors, one machine with a forbidden zone', () => {
    const forbiddenZones = DEMO_MACHINES.map((machine) => {
      const sectors = ProgramDataSchema.parse(machine.program.programData).features;
      expect(sectors.length).toBeGreaterThanOrEqual(2);
      expect(sectors.length).toBeLessThanOrEqual(4);
      return sectors.filter(isForbiddenZone).length;
    });
    expect(forbiddenZones.filter((count) => count > 0)).toEqual([1]);
  });
});
