/**
 * An ISOXML prescription (ISO 11783-10 task data): a task's grid (type 1, treatment zone codes;
 * type 2, values) or its treatment zones' polygons, each with process data variables. The task
 * data is parsed with the `isoxml` package; the grid's cells and their rates are read here, as
 * the package gives a grid of type 1 no shapes. Every variable whose unit is a volume per area is
 * a column, its values turned into mm. The package (with Turf under it: 42 MB and 0.4 s to load)
 * is loaded when the first task data comes, not with the server.
 */

import type * as IsoxmlModule from 'isoxml';
import type {
  ExtendedTask,
  Grid,
  ProcessDataVariable,
  TreatmentZone,
  ValuePresentation,
  ValueInformation,
} from 'isoxml';
import { MAX_PRESCRIPTION_CORNERS } from '@pivot/contracts';
import { AppError } from '../../errors';
import type { PrescriptionZone } from './prescription-zone';

type Isoxml = typeof IsoxmlModule;
type ValueInformationOf = (ddi: string, vpn?: ValuePresentation) => ValueInformation;
/** What is read with the package: its classes, and how it reads a variable's unit and scale. */
type Reader = { isoxml: Isoxml; valueInformation: ValueInformationOf };

/** A volume per area in each unit ISO 11783-11 gives one, as mm of water (1 mm = 1 L/m² = 10 m³/ha). */
const MM_PER_UNIT: Record<string, number> = {
  'mm³/m²': 1e-6,
  'ml/m²': 1e-3,
  'l/m²': 1,
  'L/m²': 1,
  mm: 1,
  'l/ha': 1e-4,
  'L/ha': 1e-4,
  'm³/ha': 0.1,
};
/** A grid cell is a square of five corners, as a polygon zone would be counted. */
const CORNERS_PER_CELL = 5;

/** A variable's column name and how its raw value becomes mm; null for one that is not a water rate. */
function columnOf(
  reader: Reader,
  variable: ProcessDataVariable,
): { name: string; toMm: (raw: number) => number } | null {
  const vpn = variable.attributes.ValuePresentationIdRef?.entity as ValuePresentation | undefined;
  const info = reader.valueInformation(variable.attributes.ProcessDataDDI, vpn);
  const factor = MM_PER_UNIT[info.unit];
  if (factor === undefined) return null;
  const name = `DDI ${info.DDINumber}: ${info.DDEntityName || info.unit}`;
  // ISO 11783-10: a value presentation shows (value + offset) × scale; a DDI's own resolution has no offset.
  return { name, toMm: (raw) => (raw + info.offset) * info.scale * factor };
}

/** A zone's variables as columns of mm. */
function valuesOf(reader: Reader, zone: TreatmentZone): Record<string, number> {
  const values: Record<string, number> = {};
  for (const variable of zone.attributes.ProcessDataVariable ?? []) {
    const column = columnOf(reader, variable);
    if (column) values[column.name] = column.toMm(variable.attributes.ProcessDataValue);
  }
  return values;
}

/**
 * The grid's cells with a prescription: type 1, each cell's byte the code of its treatment zone
 * (the task's out-of-field zone prescribes nothing); type 2, each cell a 32-bit value per
 * variable of the grid's zone, a cell of zeros prescribing nothing, as the package reads it.
 */
function gridZones(reader: Reader, task: ExtendedTask, grid: Grid & { binaryData?: Uint8Array }): PrescriptionZone[] {
  const a = grid.attributes;
  const cells = a.GridMaximumColumn * a.GridMaximumRow;
  if (cells * CORNERS_PER_CELL > MAX_PRESCRIPTION_CORNERS) throw new AppError('prescription_too_many_corners');
  const binary = grid.binaryData;
  const zones = task.attributes.TreatmentZone ?? [];
  const square = (column: number, row: number): [number, number][][] => {
    const west = a.GridMinimumEastPosition + column * a.GridCellEastSize;
    const south = a.GridMinimumNorthPosition + row * a.GridCellNorthSize;
    const east = west + a.GridCellEastSize;
    const north = south + a.GridCellNorthSize;
    return [
      [
        [west, south],
        [east, south],
        [east, north],
        [west, north],
        [west, south],
      ],
    ];
  };
  const result: PrescriptionZone[] = [];
  if (a.GridType === reader.isoxml.GridGridTypeEnum.GridType1) {
    if (!binary || binary.length < cells) throw new AppError('prescription_unreadable');
    const valuesOfCode = new Map(zones.map((zone) => [zone.attributes.TreatmentZoneCode, valuesOf(reader, zone)]));
    const outOfField = task.attributes.OutOfFieldTreatmentZoneCode;
    for (let cell = 0; cell < cells; cell += 1) {
      const code = binary[cell]!;
      const values = valuesOfCode.get(code);
      if (code === outOfField || !values) continue;
      result.push({ rings: square(cell % a.GridMaximumColumn, Math.floor(cell / a.GridMaximumColumn)), values });
    }
    return result;
  }
  const zone = zones.find((candidate) => candidate.attributes.TreatmentZoneCode === a.TreatmentZoneCode);
  const variables = zone?.attributes.ProcessDataVariable ?? [];
  if (!binary || variables.length === 0 || binary.length < cells * variables.length * 4) {
    throw new AppError('prescription_unreadable');
  }
  const columns = variables.map((variable) => columnOf(reader, variable));
  const view = new DataView(binary.buffer, binary.byteOffset, binary.byteLength);
  for (let cell = 0; cell < cells; cell += 1) {
    const raw = variables.map((_, index) => view.getInt32((cell * variables.length + index) * 4, true));
    if (raw.every((value) => value === 0)) continue;
    const values: Record<string, number> = {};
    columns.forEach((column, index) => {
      if (column) values[column.name] = column.toMm(raw[index]!);
    });
    result.push({ rings: square(cell % a.GridMaximumColumn, Math.floor(cell / a.GridMaximumColumn)), values });
  }
  return result;
}

/** The treatment zones' own polygons, each part a zone with its zone's rates. */
function polygonZones(reader: Reader, task: ExtendedTask): PrescriptionZone[] {
  const zones = task.attributes.TreatmentZone ?? [];
  let corners = 0;
  for (const zone of zones) {
    for (const polygon of zone.attributes.PolygonTreatmentZoneonly ?? []) {
      for (const ring of polygon.attributes.LineString ?? []) corners += ring.attributes.Point?.length ?? 0;
    }
  }
  if (corners > MAX_PRESCRIPTION_CORNERS) throw new AppError('prescription_too_many_corners');
  return zones.flatMap((zone) => {
    // The package's types say a Feature; it gives the MultiPolygon geometry itself.
    const shape = reader.isoxml.ExtendedPolygon.toGeoJSON(
      zone.attributes.PolygonTreatmentZoneonly ?? [],
    ) as unknown as {
      coordinates: [number, number][][][];
    } | null;
    if (!shape) return [];
    const values = valuesOf(reader, zone);
    return shape.coordinates.map((rings) => ({ rings, values }));
  });
}

/**
 * The zones of the task data's first task that prescribes by a grid or by zones' polygons. The
 * zip given holds only the task data's files, checked and unpacked already (prescription-file.ts).
 */
export async function readIsoxmlPrescription(zip: Uint8Array): Promise<PrescriptionZone[]> {
  const [isoxml, utils] = await Promise.all([import('isoxml'), import('isoxml/dist/utils.js')]);
  const reader: Reader = { isoxml, valueInformation: utils.constructValueInformation };
  const manager = new isoxml.ISOXMLManager();
  try {
    await manager.parseISOXMLFile(zip, 'application/zip');
  } catch {
    throw new AppError('prescription_unreadable');
  }
  for (const task of (manager.rootElement?.attributes.Task ?? []) as ExtendedTask[]) {
    const grid = task.attributes.Grid?.[0];
    const zones = grid ? gridZones(reader, task, grid) : polygonZones(reader, task);
    if (zones.length > 0) return zones;
  }
  throw new AppError('prescription_no_rates');
}
