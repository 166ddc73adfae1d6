import type { Position, Program, Sector } from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import {
  areaPolygons,
  machineProgramState,
  nextSectorName,
  programFileName,
  programGeoJson,
  sameSectors,
  withSector,
  withoutSector,
} from './program-data';

const ring = (west: number): Position[] => [
  [west, 52],
  [west + 0.01, 52],
  [west + 0.01, 52.01],
  [west, 52],
];
const sector = (name: string, rate: number, west = 17): Sector => ({
  type: 'Feature',
  properties: { name, rate },
  geometry: { type: 'Polygon', coordinates: [ring(west)] },
});
const program = (id: number, name: string, sectors: Sector[]): Program => ({
  id,
  name,
  programData: { type: 'FeatureCollection', features: sectors },
});
const current = (name: string, sectors: Sector[]) => ({ type: 'FeatureCollection' as const, name, features: sectors });

describe('comparing sectors', () => {
  it('matches the same names, rates and coordinates in any order', () => {
    expect(sameSectors([sector('A', 1), sector('B', 2, 18)], [sector('B', 2, 18), sector('A', 1)])).toBe(true);
  });

  it('tells a changed rate, name, coordinate or count', () => {
    const base = [sector('A', 1), sector('B', 2, 18)];
    expect(sameSectors(base, [sector('A', 1), sector('B', 3, 18)])).toBe(false);
    expect(sameSectors(base, [sector('A', 1), sector('C', 2, 18)])).toBe(false);
    expect(sameSectors(base, [sector('A', 1), sector('B', 2, 18.001)])).toBe(false);
    expect(sameSectors(base, [sector('A', 1)])).toBe(false);
  });

  it('ignores rounding noise below a millimetre', () => {
    const noisy = sector('A', 1);
    noisy.geometry.coordinates[0]![1] = [17.01 + 1e-12, 52];
    expect(sameSectors([sector('A', 1)], [noisy])).toBe(true);
  });
});

describe("the machine's program against the stored ones", () => {
  const stored = [program(1, 'Lato', [sector('A', 1)]), program(2, 'Jesień', [sector('A', 5)])];

  it('is none when the machine runs no program', () => {
    expect(machineProgramState({ programs: stored, currentProgramData: null })).toEqual({ kind: 'none' });
  });

  it('matches the stored program of its name with the same sectors', () => {
    const state = machineProgramState({ programs: stored, currentProgramData: current('Lato', [sector('A', 1)]) });
    expect(state).toEqual({ kind: 'matches', program: stored[0] });
  });

  it('differs when the stored program of its name was changed since', () => {
    const state = machineProgramState({ programs: stored, currentProgramData: current('Jesień', [sector('A', 1)]) });
    expect(state).toEqual({ kind: 'differs', program: stored[1] });
  });

  it('is unknown when no stored program has its name', () => {
    const state = machineProgramState({ programs: stored, currentProgramData: current('Zima', [sector('A', 1)]) });
    expect(state).toEqual({ kind: 'unknown' });
  });
});

describe('changing sectors', () => {
  const data = program(1, 'P', [sector('A', 1), sector('B', 2)]).programData;

  it('adds a new sector at the end', () => {
    expect(withSector(data, null, sector('C', 3)).features.map((item) => item.properties.name)).toEqual([
      'A',
      'B',
      'C',
    ]);
  });

  it('replaces a sector in its place, even when renamed', () => {
    const changed = withSector(data, 'A', sector('Z', 9));
    expect(changed.features.map((item) => [item.properties.name, item.properties.rate])).toEqual([
      ['Z', 9],
      ['B', 2],
    ]);
  });

  it('appends when the original sector is gone meanwhile', () => {
    expect(withSector(data, 'X', sector('X', 1)).features).toHaveLength(3);
  });

  it('removes a sector by name', () => {
    expect(withoutSector(data, 'A').features.map((item) => item.properties.name)).toEqual(['B']);
  });

  it('numbers a new sector after the ones taken', () => {
    const nameFor = (number: number) => `Sektor ${number}`;
    expect(nextSectorName([], nameFor)).toBe('Sektor 1');
    expect(nextSectorName([sector('A', 1)], nameFor)).toBe('Sektor 2');
    expect(nextSectorName([sector('Sektor 2', 1), sector('Sektor 3', 1)], nameFor)).toBe('Sektor 4');
  });
});

describe('exporting', () => {
  it('writes a FeatureCollection with the sectors as they are, [longitude, latitude]', () => {
    const exported = programGeoJson(program(1, 'Lato', [sector('A', 1)]));
    expect(exported).toEqual({ type: 'FeatureCollection', name: 'Lato', features: [sector('A', 1)] });
    expect(exported.features[0]!.geometry.coordinates[0]![0]).toEqual([17, 52]);
  });

  it('names the file after the program, without characters file systems refuse', () => {
    expect(programFileName('Kukurydza lipiec')).toBe('Kukurydza lipiec.geojson');
    expect(programFileName('Pole 1/2: "wschód"')).toBe('Pole 1-2- -wschód-.geojson');
    expect(programFileName('...')).toBe('program.geojson');
  });
});

describe("the machine's area map", () => {
  it('lists the polygons of a feature collection with their kind and name', () => {
    const areaMap = {
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          properties: { kind: 'field', name: 'Pole' },
          geometry: { type: 'Polygon', coordinates: [ring(17)] },
        },
        {
          type: 'Feature',
          properties: { kind: 'crop', name: 'Kukurydza' },
          geometry: { type: 'MultiPolygon', coordinates: [[ring(17)], [ring(18)]] },
        },
        { type: 'Feature', properties: null, geometry: { type: 'Point', coordinates: [17, 52] } },
      ],
    };
    expect(areaPolygons(areaMap).map((area) => [area.kind, area.name])).toEqual([
      ['field', 'Pole'],
      ['crop', 'Kukurydza'],
      ['crop', 'Kukurydza'],
    ]);
    expect(areaPolygons({ type: 'Polygon', coordinates: [ring(17)] })).toHaveLength(1);
    expect(areaPolygons(null)).toEqual([]);
  });
});
