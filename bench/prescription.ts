/**
 * A prescription made into a program (docs/prescriptions.md), timed where the server spends
 * them: reading the file and making the sectors both run on the event loop, so each is how long
 * every other request of the instance waits. Files: a 10 m grid over a 520 m machine as a zipped
 * shapefile (what the machine's own as-applied export gives), the largest grid taken (a 1,200 m
 * arm: about 225,000 corners), a GeoJSON of 50 polygons of 4,900 corners each, and a shapefile
 * that says it has a million corners (refused from its headers). Target: under 500 ms for any
 * file taken, under 100 ms for the refusal (it unpacks the 16 MB .shp to read its headers).
 */
import { zipSync } from 'fflate';
import { type LatLng, positionAt } from '@pivot/contracts';
import { shapefileParts } from '@pivot/server/src/modules/as-applied/shapefile';
import { readPrescriptionFile } from '@pivot/server/src/modules/programs/prescription-file';
import { prescriptionSectors } from '@pivot/server/src/modules/programs/prescription-sectors';
import { millionCornerShapefileZip } from '@pivot/server/test/support/hostile-shapes';
import { readOptions } from './support/cli';
import { formatNumber, printFigure, printSection, printTargeted, printTitle } from './support/report';
import { runBenchmark } from './support/run';
import { median } from './support/stats';

const CENTRE: LatLng = { lat: 52.25, lng: 17.15 };
const CELL_METRES = 10;
const TAKEN_TARGET_MS = 500;
const REFUSAL_TARGET_MS = 100;
const METRES_PER_DEGREE_LAT = 111_195;
const METRES_PER_DEGREE_LNG = METRES_PER_DEGREE_LAT * Math.cos((CENTRE.lat * Math.PI) / 180);

const options = readOptions({ runs: 5 });

const at = (x: number, y: number): [number, number] => [
  CENTRE.lng + x / METRES_PER_DEGREE_LNG,
  CENTRE.lat + y / METRES_PER_DEGREE_LAT,
];

/** The dose an as-applied map of three programs' thirds would hold at a point: 10, 20 and 15 mm. */
function doseAt(x: number, y: number): number {
  const heading = ((Math.atan2(x, y) * 180) / Math.PI + 360) % 360;
  return heading < 120 ? 10 : heading < 240 ? 20 : 15;
}

/** A 10 m grid over the machine's circle as a zipped shapefile, the as-applied export's own writer and fields. */
function gridShapefile(armLength: number): Uint8Array {
  const features = [];
  const cells = Math.ceil(armLength / CELL_METRES);
  for (let row = -cells; row < cells; row += 1) {
    for (let column = -cells; column < cells; column += 1) {
      const x = (column + 0.5) * CELL_METRES;
      const y = (row + 0.5) * CELL_METRES;
      if (x * x + y * y > armLength * armLength) continue;
      const [west, south, east, north] = [column, row, column + 1, row + 1].map((edge) => edge * CELL_METRES) as [
        number,
        number,
        number,
        number,
      ];
      features.push({
        corners: [at(west, south), at(east, south), at(east, north), at(west, north)],
        MACHINE: 'Bench',
        DEPTH_MM: doseAt(x, y),
        VOL_M3: 0,
        START_UTC: '2026-05-12T04:00:00Z',
        END_UTC: '2026-05-12T04:00:00Z',
      });
    }
  }
  const files: Record<string, Uint8Array> = {};
  for (const entry of shapefileParts('grid', features)) files[entry.name] = Buffer.concat([...entry.chunks]);
  return zipSync(files);
}

/** 50 wedges of a 520 m machine, each with an arc of 4,900 corners, as GeoJSON. */
function detailedGeoJson(): Uint8Array {
  const features = Array.from({ length: 50 }, (_, index) => {
    const from = index * 7.2;
    const arc = Array.from({ length: 4_897 }, (_unused, step) => positionAt(CENTRE, from + (step * 7.2) / 4_896, 520));
    const centre: [number, number] = [CENTRE.lng, CENTRE.lat];
    return {
      type: 'Feature',
      geometry: { type: 'Polygon', coordinates: [[centre, ...arc, centre]] },
      properties: { rate: 8 + (index % 5) },
    };
  });
  return new TextEncoder().encode(JSON.stringify({ type: 'FeatureCollection', features }));
}

function timeMs(work: () => void): number {
  const started = performance.now();
  work();
  return performance.now() - started;
}

async function timeMsAsync(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

runBenchmark('prescription', 300_000, async () => {
  printTitle('A prescription made into a program', {
    runs: `${options.runs} of each, median`,
    grid: `${CELL_METRES} m cells, as the as-applied export writes them`,
  });
  const cases = [
    { label: '520 m machine, 10 m grid (.zip)', fileName: 'grid.zip', bytes: gridShapefile(520), armLength: 520 },
    { label: '1,200 m machine, 10 m grid (.zip)', fileName: 'grid.zip', bytes: gridShapefile(1_200), armLength: 1_200 },
    { label: '50 wedges of 4,900 corners (.geojson)', fileName: 'w.geojson', bytes: detailedGeoJson(), armLength: 520 },
  ];
  for (const { label, fileName, bytes, armLength } of cases) {
    printSection(`${label}: ${formatNumber(bytes.length / 1024)} KB`);
    const reads: number[] = [];
    const makes: number[] = [];
    let sectors = 0;
    let zones = 0;
    for (let run = 0; run < options.runs; run += 1) {
      let read: Awaited<ReturnType<typeof readPrescriptionFile>> = [];
      reads.push(await timeMsAsync(async () => (read = await readPrescriptionFile(fileName, bytes))));
      const rated = read.map((zone) => ({
        rings: zone.rings,
        rateMm: Number(zone.values.DEPTH_MM ?? zone.values.rate),
      }));
      zones = rated.length;
      makes.push(timeMs(() => (sectors = prescriptionSectors(rated, { centre: CENTRE, armLength }, 1).sectors.length)));
    }
    printFigure('zones, sectors made', `${formatNumber(zones)}, ${sectors}`);
    printFigure('reading the file', `${formatNumber(median(reads), 1)} ms`);
    printFigure('making the sectors', `${formatNumber(median(makes), 1)} ms`);
    printTargeted('in all', median(reads) + median(makes), 'ms', { below: TAKEN_TARGET_MS });
  }
  printSection('a shapefile that says it has a million corners');
  const refusals: number[] = [];
  const million = millionCornerShapefileZip();
  for (let run = 0; run < options.runs; run += 1) {
    refusals.push(
      await timeMsAsync(() =>
        // Refused, as it should be: the time to refuse is the figure.
        readPrescriptionFile('million.zip', million).catch(() => undefined),
      ),
    );
  }
  printTargeted('refused after', median(refusals), 'ms', { below: REFUSAL_TARGET_MS }, 1);
});
