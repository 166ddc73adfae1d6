import { addDays, localDate, localMidnight } from '../../time/local-day';
import type { AreaPolygon } from '../sprinklers';
import type { AsAppliedFeature } from './as-applied-cells';
import { type ZipEntry, inPieces } from './zip-stream';

/**
 * ISO 11783-10 (ISOXML) v4 task data of as-applied water, written by hand: the XML is a few
 * dozen elements, and the TimeLog's binary is what the field's `isoxml` package cannot write
 * (the tests read both back with it). docs/as-applied.md says why each choice.
 */

const DAY_MS = 86_400_000;
const EPOCH_1980 = Date.UTC(1980, 0, 1);

/**
 * The process data each record carries, in the header's order. DDI 589 is the volume per area
 * in ml/m² at 0.1 (1 mm = 10,000), up to 214 m in an int32: DDI 2, in mm³/m² at 0.01, stops at
 * 21.47 mm, less than one pass of a pivot.
 */
const DEPTH_DDI = 0x024d;
/** Application Total Volume, L: the running total, so the last record holds the task's volume. */
const TOTAL_VOLUME_DDI = 0x0050;
/** Actual Work State: 1, on. */
const WORK_STATE_DDI = 0x008d;
const LOGGED = [DEPTH_DDI, TOTAL_VOLUME_DDI, WORK_STATE_DDI];
const DEPTH_PER_MM = 10_000;

/** ISO 11783-5 NAME: self-configurable, device class 10 (irrigation) in the second byte. */
const CLIENT_NAME = 'A014000000000001';
/** A record: local time 6 bytes, north and east 8, GPS UTC time and date 6, the count 1, 5 per value. */
const RECORD_BYTES = 6 + 8 + 6 + 1 + LOGGED.length * 5;
/** Points of the field's circle. */
const BOUNDARY_POINTS = 72;
/** The task data's own version of this writer, for a reader that keeps track of its sources. */
const SOFTWARE_VERSION = '1.0';
const METRES_PER_DEGREE_LAT = 111_320;

/** A machine's water on one local day (YYYY-MM-DD): a task of the task data. */
export type TaskDay = { date: string; features: AsAppliedFeature[] };

/** One machine's as-applied water for the task data, day by day. */
export type TaskMachine = {
  name: string;
  centre: { lat: number; lng: number };
  armLength: number;
  /** The field's own boundary from the machine's area map; none: the circle its arm waters. */
  field: AreaPolygon[];
  /** Its days with water, in order, each read as the one before has been written. */
  days: AsyncIterable<TaskDay> | Iterable<TaskDay>;
};

/** The task data numbers a TimeLog's files in five digits. */
export const MAX_TIME_LOGS = 99_999;

const hex = (ddi: number) => ddi.toString(16).toUpperCase().padStart(4, '0');

function attribute(value: string | number): string {
  return String(value)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

function element(tag: string, attributes: Record<string, string | number>, children: string[] = []): string {
  const written = Object.entries(attributes)
    .map(([name, value]) => ` ${name}="${attribute(value)}"`)
    .join('');
  return children.length === 0 ? `<${tag}${written}/>` : `<${tag}${written}>\n${children.join('\n')}\n</${tag}>`;
}

/** How far from the centre water fell: the farthest corner of a day's cells, metres. */
function farthestCorner(centre: TaskMachine['centre'], features: AsAppliedFeature[]): number {
  const metresPerDegreeLng = METRES_PER_DEGREE_LAT * Math.cos((centre.lat * Math.PI) / 180);
  let farthest = 0;
  for (const { corners } of features) {
    for (const [lng, lat] of corners) {
      const metres = Math.hypot((lat - centre.lat) * METRES_PER_DEGREE_LAT, (lng - centre.lng) * metresPerDegreeLng);
      farthest = Math.max(farthest, metres);
    }
  }
  return farthest;
}

/** A field as the boundary needs it: the machine, and how far its arm reaches (or its water, when it has no arm length). */
type FieldOf = Pick<TaskMachine, 'centre' | 'field'> & { radius: number };

/** When the day's first water fell and its last (not by spreading: a 2 km arm has 126,000 cells). */
function taskTimes(features: AsAppliedFeature[]): { start: string; stop: string } {
  let start = features[0]!.START_UTC;
  let stop = features[0]!.END_UTC;
  for (const feature of features) {
    if (feature.START_UTC < start) start = feature.START_UTC;
    if (feature.END_UTC > stop) stop = feature.END_UTC;
  }
  return { start, stop };
}

/** A boundary's point: north (C) and east (D). */
const point = (lat: number, lng: number) => element('PNT', { A: 2, C: lat.toFixed(9), D: lng.toFixed(9) });

/** The circle the arm waters, as a ring of points. */
function circleBoundary({ centre, radius }: FieldOf): string {
  const points = Array.from({ length: BOUNDARY_POINTS + 1 }, (_, index) => {
    const bearing = ((index % BOUNDARY_POINTS) / BOUNDARY_POINTS) * 2 * Math.PI;
    const north = centre.lat + (radius * Math.cos(bearing)) / METRES_PER_DEGREE_LAT;
    const east =
      centre.lng + (radius * Math.sin(bearing)) / (METRES_PER_DEGREE_LAT * Math.cos((centre.lat * Math.PI) / 180));
    return point(north, east);
  });
  return element('PLN', { A: 1 }, [element('LSG', { A: 1 }, points)]);
}

/**
 * The field's boundary (PLN of type 1, partfield boundary): the area map's field polygons, each
 * with its outer ring (LSG type 1) and holes (type 2); else the circle the arm waters.
 */
function boundaries(machine: FieldOf): string[] {
  if (machine.field.length === 0) return [circleBoundary(machine)];
  return machine.field.map((rings) =>
    element(
      'PLN',
      { A: 1 },
      rings.map((ring, index) =>
        element(
          'LSG',
          { A: index === 0 ? 1 : 2 },
          ring.map(([lng, lat]) => point(lat!, lng!)),
        ),
      ),
    ),
  );
}

/** The field's area, m²: the boundary's polygons less their holes, on the plane around the pivot. */
function fieldArea(machine: FieldOf): number {
  if (machine.field.length === 0) return Math.PI * machine.radius ** 2;
  const metresPerDegreeLng = METRES_PER_DEGREE_LAT * Math.cos((machine.centre.lat * Math.PI) / 180);
  const ringArea = (ring: number[][]) => {
    let twice = 0;
    for (let index = 0; index + 1 < ring.length; index += 1) {
      const [x1, y1] = ring[index]!;
      const [x2, y2] = ring[index + 1]!;
      twice +=
        x1! * metresPerDegreeLng * (y2! * METRES_PER_DEGREE_LAT) -
        x2! * metresPerDegreeLng * (y1! * METRES_PER_DEGREE_LAT);
    }
    return Math.abs(twice) / 2;
  };
  return machine.field.reduce(
    (sum, [outer, ...holes]) =>
      sum + ringArea(outer!) - holes.reduce((holesArea, hole) => holesArea + ringArea(hole), 0),
    0,
  );
}

/** The records in the order the water fell, each at its cell's centre. */
function records(features: AsAppliedFeature[]) {
  return features
    .map((feature) => {
      const [southWest, , northEast] = feature.corners;
      return {
        ts: Date.parse(feature.START_UTC),
        north: (southWest![1] + northEast![1]) / 2,
        east: (southWest![0] + northEast![0]) / 2,
        depthMm: feature.DEPTH_MM,
        litres: feature.VOL_M3 * 1000,
      };
    })
    .sort((a, b) => a.ts - b.ts || a.north - b.north || a.east - b.east);
}

/**
 * The TimeLog's binary: a record per watered cell, at the time its first water fell, at its
 * centre, with its depth, the running total of the volume and the work state on. TimeStart is
 * local time (ISO 11783-10; ADAPT reads it so), the GPS time beside it UTC.
 */
function timeLogBinary(features: AsAppliedFeature[], timeZone: string): Uint8Array {
  const logged = records(features);
  const bytes = new Uint8Array(logged.length * RECORD_BYTES);
  const view = new DataView(bytes.buffer);
  let litres = 0;
  // The records come in time order: the local day is worked out again only when it changes.
  let day = { start: 0, end: 0, sinceEpoch: 0 };
  logged.forEach((record, index) => {
    let at = index * RECORD_BYTES;
    if (record.ts < day.start || record.ts >= day.end) {
      const date = localDate(timeZone, record.ts);
      day = {
        start: localMidnight(timeZone, date).getTime(),
        end: localMidnight(timeZone, addDays(date, 1)).getTime(),
        sinceEpoch: (Date.parse(date) - EPOCH_1980) / DAY_MS,
      };
    }
    view.setUint32(at, record.ts - day.start, true);
    view.setUint16(at + 4, day.sinceEpoch, true);
    view.setInt32(at + 6, Math.round(record.north * 1e7), true);
    view.setInt32(at + 10, Math.round(record.east * 1e7), true);
    view.setUint32(at + 14, record.ts % DAY_MS, true);
    view.setUint16(at + 18, Math.floor((record.ts - EPOCH_1980) / DAY_MS), true);
    view.setUint8(at + 20, LOGGED.length);
    at += 21;
    litres += record.litres;
    const values = [Math.round(record.depthMm * DEPTH_PER_MM), Math.round(litres), 1];
    values.forEach((value, position) => {
      view.setUint8(at, position);
      view.setInt32(at + 1, value, true);
      at += 5;
    });
  });
  return bytes;
}

/** The TimeLog's header: which of a record's values are in the binary (""), and which process data. */
function timeLogHeader(deviceElement: string): string {
  return element('TIM', { A: '', D: 4 }, [
    element('PTN', { A: '', B: '', D: 1, H: '', I: '' }),
    ...LOGGED.map((ddi) => element('DLV', { A: hex(ddi), B: '', C: deviceElement })),
  ]);
}

const encoder = new TextEncoder();
const xmlFile = (root: string) => encoder.encode(`<?xml version="1.0" encoding="UTF-8"?>\n${root}\n`);

/**
 * The task data of machines' as-applied water, in `TASKDATA/`: a task per machine and local day
 * with water, each with its TimeLog (TLGnnnnn.xml and .bin), written
 * as each day comes, then TASKDATA.XML (the customer and farm, each machine's field, the machine
 * as a device of class 10, its tasks), which names them all; readers find the files by name,
 * whatever their order in the zip. A machine without water in the days is left out. At most
 * `MAX_TIME_LOGS` tasks: the caller keeps machines × days within it.
 */
export async function* taskDataEntries(
  customer: string,
  machines: AsyncIterable<TaskMachine> | Iterable<TaskMachine>,
  timeZone: string,
): AsyncGenerator<ZipEntry> {
  const children = [element('CTR', { A: 'CTR1', B: customer }), element('FRM', { A: 'FRM1', B: customer, I: 'CTR1' })];
  let machineCount = 0;
  let taskCount = 0;
  for await (const machine of machines) {
    const n = machineCount + 1;
    const tasks: string[] = [];
    let farthestWater = 0;
    for await (const { date, features } of machine.days) {
      if (features.length === 0) continue;
      taskCount += 1;
      const timeLog = `TLG${String(taskCount).padStart(5, '0')}`;
      const binary = timeLogBinary(features, timeZone);
      yield { name: `TASKDATA/${timeLog}.xml`, chunks: [xmlFile(timeLogHeader(`DET${n}`))] };
      yield { name: `TASKDATA/${timeLog}.bin`, chunks: inPieces(binary) };
      if (machine.armLength <= 0) farthestWater = Math.max(farthestWater, farthestCorner(machine.centre, features));
      const { start, stop } = taskTimes(features);
      tasks.push(
        element(
          'TSK',
          { A: `TSK${taskCount}`, B: `${machine.name} ${date}`, C: 'CTR1', D: 'FRM1', E: `PFD${n}`, G: 4 },
          [
            element('TIM', { A: `${start.slice(0, 19)}.000Z`, B: `${stop.slice(0, 19)}.000Z`, D: 4 }),
            element('DAN', { A: CLIENT_NAME, C: `DVC${n}` }),
            element('TLG', { A: timeLog, B: binary.length, C: 1 }),
          ],
        ),
      );
    }
    if (tasks.length === 0) continue;
    machineCount = n;
    const field = { ...machine, radius: machine.armLength > 0 ? machine.armLength : farthestWater };
    children.push(
      element(
        'PFD',
        { A: `PFD${n}`, C: machine.name, D: Math.round(fieldArea(field)), E: 'CTR1', F: 'FRM1' },
        boundaries(field),
      ),
      element('DVC', { A: `DVC${n}`, B: machine.name, D: CLIENT_NAME, F: '31303030303031', G: 'FF000000006564' }, [
        element(
          'DET',
          { A: `DET${n}`, B: 1, C: 1, D: machine.name, E: 0, F: 0 },
          LOGGED.map((_, position) => element('DOR', { A: 101 + position })),
        ),
        ...LOGGED.map((ddi, position) =>
          element('DPD', {
            A: 101 + position,
            B: hex(ddi),
            C: 1,
            D: ddi === TOTAL_VOLUME_DDI ? 16 : 9,
            ...(ddi === DEPTH_DDI ? { F: 201 } : {}),
          }),
        ),
        element('DVP', { A: 201, B: 0, C: 1 / DEPTH_PER_MM, D: 1, E: 'mm' }),
      ]),
      ...tasks,
    );
  }
  const root = element(
    'ISO11783_TaskData',
    {
      VersionMajor: 4,
      VersionMinor: 3,
      ManagementSoftwareManufacturer: 'Pivot',
      ManagementSoftwareVersion: SOFTWARE_VERSION,
      DataTransferOrigin: 1,
    },
    children,
  );
  yield { name: 'TASKDATA/TASKDATA.XML', chunks: [xmlFile(root)] };
}
