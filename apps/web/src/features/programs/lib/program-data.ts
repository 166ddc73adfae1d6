import type { Position, Program, ProgramData, Sector, SprinklerDetail } from '@pivot/contracts';

/** A new program has no sectors yet. */
export const EMPTY_PROGRAM_DATA: ProgramData = { type: 'FeatureCollection', features: [] };

/**
 * Coordinates that differ by less than this (degrees, about a millimetre) are the same point:
 * a program that went to the machine and back through JSON may carry rounding noise.
 */
const COORDINATE_TOLERANCE = 1e-8;

function samePosition(a: Position, b: Position): boolean {
  return Math.abs(a[0] - b[0]) <= COORDINATE_TOLERANCE && Math.abs(a[1] - b[1]) <= COORDINATE_TOLERANCE;
}

function sameRings(a: readonly (readonly Position[])[], b: readonly (readonly Position[])[]): boolean {
  return (
    a.length === b.length &&
    a.every((ring, index) => {
      const other = b[index]!;
      return ring.length === other.length && ring.every((position, at) => samePosition(position, other[at]!));
    })
  );
}

/** Two programs' sectors are the same when names, rates and coordinates all match (in any order). */
export function sameSectors(a: readonly Sector[], b: readonly Sector[]): boolean {
  if (a.length !== b.length) return false;
  const byName = new Map(b.map((sector) => [sector.properties.name, sector]));
  if (byName.size !== b.length) return false;
  return a.every((sector) => {
    const other = byName.get(sector.properties.name);
    return (
      other !== undefined &&
      other.properties.rate === sector.properties.rate &&
      sameRings(sector.geometry.coordinates, other.geometry.coordinates)
    );
  });
}

/**
 * How the program the machine runs relates to the stored ones (docs/product.md#states): `matches` a stored
 * program of the same name and sectors, `differs` from the stored one of its name, or is
 * `unknown` to the database (no stored program has its name).
 */
export type MachineProgramState =
  | { kind: 'none' }
  | { kind: 'matches'; program: Program }
  | { kind: 'differs'; program: Program }
  | { kind: 'unknown' };

export function machineProgramState(
  sprinkler: Pick<SprinklerDetail, 'programs' | 'currentProgramData'>,
): MachineProgramState {
  const current = sprinkler.currentProgramData;
  if (!current) return { kind: 'none' };
  const program = sprinkler.programs.find((stored) => stored.name === current.name);
  if (!program) return { kind: 'unknown' };
  return { kind: sameSectors(program.programData.features, current.features) ? 'matches' : 'differs', program };
}

/** The first of "Sector 1", "Sector 2", … that no sector of the program is named yet. */
export function nextSectorName(sectors: readonly Sector[], nameFor: (number: number) => string): string {
  const taken = new Set(sectors.map((sector) => sector.properties.name));
  let number = sectors.length + 1;
  while (taken.has(nameFor(number))) number += 1;
  return nameFor(number);
}

/** The program's sectors with one added (originalName null) or replaced (the one of that name). */
export function withSector(programData: ProgramData, originalName: string | null, sector: Sector): ProgramData {
  const index =
    originalName === null ? -1 : programData.features.findIndex((item) => item.properties.name === originalName);
  const features =
    index === -1
      ? [...programData.features, sector]
      : programData.features.map((item, at) => (at === index ? sector : item));
  return { type: 'FeatureCollection', features };
}

export function withoutSector(programData: ProgramData, name: string): ProgramData {
  return { type: 'FeatureCollection', features: programData.features.filter((item) => item.properties.name !== name) };
}

/** A program as a GeoJSON file (RFC 7946, [longitude, latitude]); its name rides along as a foreign member. */
export function programGeoJson(program: Pick<Program, 'name' | 'programData'>) {
  return { type: 'FeatureCollection' as const, name: program.name, features: program.programData.features };
}

/** A file name for a program: its name without characters file systems refuse. */
export function programFileName(name: string): string {
  const safe = name
    // eslint-disable-next-line no-control-regex -- control characters are what is removed here
    .replace(/[\u0000-\u001f\\/:*?"<>|]+/g, '-')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '');
  return `${safe || 'program'}.geojson`;
}

/** Every [longitude, latitude] of a GeoJSON object (the machine's areaMap, say), whatever its shape. */
export function positionsOf(value: unknown): Position[] {
  const found: Position[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      if (node.length >= 2 && typeof node[0] === 'number' && typeof node[1] === 'number') {
        found.push([node[0], node[1]]);
      } else node.forEach(visit);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    const record = node as Record<string, unknown>;
    if ('coordinates' in record) visit(record.coordinates);
    if ('geometry' in record) visit(record.geometry);
    if ('geometries' in record) visit(record.geometries);
    if ('features' in record) visit(record.features);
  };
  visit(value);
  return found;
}

export type AreaPolygon = { kind: string; name: string | null; rings: Position[][] };

/** The polygons of the machine's areaMap (its field and crops), each with its kind and name. */
export function areaPolygons(areaMap: unknown): AreaPolygon[] {
  const result: AreaPolygon[] = [];
  const fromGeometry = (geometry: unknown, kind: string, name: string | null): void => {
    if (typeof geometry !== 'object' || geometry === null) return;
    const shape = geometry as { type?: unknown; coordinates?: unknown; geometries?: unknown };
    if (shape.type === 'Polygon') result.push({ kind, name, rings: shape.coordinates as Position[][] });
    if (shape.type === 'MultiPolygon') {
      for (const rings of shape.coordinates as Position[][][]) result.push({ kind, name, rings });
    }
    if (shape.type === 'GeometryCollection' && Array.isArray(shape.geometries)) {
      for (const part of shape.geometries) fromGeometry(part, kind, name);
    }
  };
  const fromFeature = (feature: { geometry?: unknown; properties?: unknown }) => {
    const properties = (feature.properties ?? {}) as Record<string, unknown>;
    const kind = typeof properties.kind === 'string' ? properties.kind : 'field';
    const name = typeof properties.name === 'string' ? properties.name : null;
    fromGeometry(feature.geometry, kind, name);
  };
  if (typeof areaMap !== 'object' || areaMap === null) return result;
  const value = areaMap as { type?: unknown; features?: unknown; geometry?: unknown; properties?: unknown };
  if (value.type === 'FeatureCollection' && Array.isArray(value.features)) value.features.forEach(fromFeature);
  else if (value.type === 'Feature') fromFeature(value);
  else fromGeometry(value, 'field', null);
  return result;
}
