import { polygonContains } from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import { cellsInPolygon, gridRowsOf } from '../../src/modules/water-balance/grid-cover';
import { cellCentre } from '../../src/modules/watermap';

const CENTRE = { lat: 52.3, lng: 17.2 };

/** The cells of a square grid of 10 m around the centre, `reach` cells each way. */
function grid(reach: number) {
  const cells = [];
  for (let x = -reach; x < reach; x += 1) {
    for (let y = -reach; y < reach; y += 1) {
      const [lat, lng] = cellCentre(CENTRE, x, y);
      cells.push({ lat, lng, index: cells.length });
    }
  }
  return cells;
}

/** A random ring of `corners` corners around a point, at distances that make spikes and notches. */
function randomRing(next: () => number, corners: number, [lng, lat]: [number, number], size: number) {
  const ring = Array.from({ length: corners }, (_, index): [number, number] => {
    const angle = (2 * Math.PI * index) / corners;
    const distance = size * (0.2 + next());
    return [lng + distance * Math.cos(angle), lat + distance * Math.sin(angle) * 0.6];
  });
  return [...ring, ring[0]!];
}

describe('the cells a polygon holds, row by row', () => {
  it('are the cells polygonContains holds, to the last one, for random polygons with holes', () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const cells = grid(40);
    const rows = gridRowsOf(cells);
    let held = 0;
    for (let round = 0; round < 60; round += 1) {
      const middle: [number, number] = [CENTRE.lng + (next() - 0.5) * 0.004, CENTRE.lat + (next() - 0.5) * 0.003];
      const rings = [randomRing(next, 3 + Math.floor(next() * 60), middle, 0.003)];
      if (round % 2 === 0) rings.push(randomRing(next, 3 + Math.floor(next() * 10), middle, 0.0006));
      const expected = cells.filter((cell) => polygonContains(rings, [cell.lng, cell.lat])).map((cell) => cell.index);
      const found = cellsInPolygon(rows, rings).sort((a, b) => a - b);
      expect(found).toEqual(expected);
      held += found.length;
    }
    expect(held).toBeGreaterThan(10_000);
  });

  it('holds nothing outside the rows between its south and north, and nothing for an empty polygon', () => {
    const rows = gridRowsOf(grid(10));
    const far: [number, number][] = [
      [18, 53],
      [18.001, 53],
      [18.001, 53.001],
      [18, 53],
    ];
    expect(cellsInPolygon(rows, [far])).toEqual([]);
    expect(cellsInPolygon(rows, [])).toEqual([]);
  });
});
