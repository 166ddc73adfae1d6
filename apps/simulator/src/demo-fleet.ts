import type { GeoJson } from '@pivot/contracts';
import { Fleet, type FleetOptions } from './fleet';
import { type MachineSite, type Wedge, surroundings, wedgeProgram } from './fleet-layout';
import { type LatLng, positionAt, wedgeRing } from './geo';
import { designFlow } from './irrigation';
import type { ProgramUpload } from './pivot-machine';
import { createRandom, mixSeed } from './random';
import { type WeatherReading, WeatherModel } from './weather-model';

export type Crop = 'maize' | 'potatoes' | 'sugar beet' | 'wheat';
type CropArea = { crop: Crop; name: string; from: number; to: number };

/** A demo machine: where it stands, its field map for the dashboard and the program it runs. */
export type DemoMachine = MachineSite & { areaMap: GeoJson; program: ProgramUpload };

/** The demo runs twenty times faster than life, so the arms move visibly. */
export const DEMO_TIME_SCALE = 20;
/** Crops stop just short of the field's edge. */
const CROP_REACH = 0.98;

/**
 * An irregular octagon around the circle: corners between 1.15 and 1.3 arm lengths out, so
 * even mid-edge the boundary clears the arm's reach, as a field drawn round a pivot would.
 */
function fieldBoundary(centre: LatLng, armLength: number, shapeSeed: number) {
  const random = createRandom(shapeSeed);
  const corners = Array.from({ length: 8 }, (_, corner) =>
    positionAt(centre, corner * 45 + random.between(-5, 5), armLength * random.between(1.15, 1.3)),
  );
  return [...corners, corners[0]!];
}

function demoMachine(
  site: Omit<MachineSite, 'program' | 'flow'> & { programName: string; sectors: Wedge[]; crops: CropArea[] },
): DemoMachine {
  const { programName, sectors, crops, ...machine } = site;
  const shapeSeed = Number.parseInt(machine.id.replace(/\D/g, ''), 10);
  const areaMap: GeoJson = {
    type: 'FeatureCollection',
    features: [
      {
        type: 'Feature',
        properties: { kind: 'field', name: machine.name },
        geometry: { type: 'Polygon', coordinates: [fieldBoundary(machine, machine.armLength, shapeSeed)] },
      },
      ...crops.map((area) => ({
        type: 'Feature' as const,
        properties: { kind: 'crop', crop: area.crop, name: area.name },
        geometry: {
          type: 'Polygon' as const,
          coordinates: [wedgeRing(machine, machine.armLength * CROP_REACH, area.from, area.to)],
        },
      })),
    ],
  };
  return {
    ...machine,
    // As built for the design capacity: a real pivot of its size pumps this.
    flow: Math.round(designFlow(machine.armLength)),
    areaMap,
    program: wedgeProgram(machine, machine.armLength, programName, sectors),
  };
}

const sector = (name: string, rate: number, from: number, to: number): Wedge => ({ name, rate, from, to });
const crop = (kind: Crop, name: string, from: number, to: number): CropArea => ({ crop: kind, name, from, to });

/** Five pivots on farmland in Wielkopolska, between Poznań, Środa Wielkopolska and Śrem. */
export const DEMO_MACHINES: readonly DemoMachine[] = [
  demoMachine({
    id: 'PIVOT-01',
    name: 'Pole za stodołą',
    lat: 52.248,
    lng: 17.362,
    armLength: 420,
    angle: 40,
    motion: 'front',
    crops: [crop('maize', 'Kukurydza', 0, 360)],
    programName: 'Kukurydza lipiec',
    sectors: [sector('Północ', 12, 300, 60), sector('Wschód', 18, 60, 180), sector('Południe i zachód', 10, 180, 300)],
  }),
  demoMachine({
    id: 'PIVOT-02',
    name: 'Łąka północna',
    lat: 52.331,
    lng: 17.305,
    armLength: 300,
    angle: 200,
    motion: 'back',
    crops: [crop('wheat', 'Pszenica ozima', 0, 180), crop('sugar beet', 'Burak cukrowy', 180, 360)],
    programName: 'Pszenica i burak',
    sectors: [sector('Pszenica', 8, 0, 180), sector('Burak', 20, 180, 360)],
  }),
  demoMachine({
    id: 'PIVOT-03',
    name: 'Pole przy lesie',
    lat: 52.172,
    lng: 17.205,
    armLength: 520,
    angle: 300,
    motion: 'front',
    crops: [crop('potatoes', 'Ziemniaki', 30, 210), crop('maize', 'Kukurydza', 210, 30)],
    programName: 'Ziemniaki z linią energetyczną',
    sectors: [
      sector('Ziemniaki A', 15, 30, 120),
      sector('Ziemniaki B', 22, 120, 210),
      sector('Kukurydza', 14, 210, 355),
      sector('Linia energetyczna', -1, 355, 30),
    ],
  }),
  demoMachine({
    id: 'PIVOT-04',
    name: 'Kwatera za sadem',
    lat: 52.293,
    lng: 17.165,
    armLength: 360,
    angle: 120,
    motion: 'stop',
    crops: [
      crop('sugar beet', 'Burak cukrowy', 0, 120),
      crop('potatoes', 'Ziemniaki', 120, 240),
      crop('wheat', 'Pszenica jara', 240, 360),
    ],
    programName: 'Trzy uprawy',
    sectors: [sector('Burak', 18, 0, 120), sector('Ziemniaki', 15, 120, 240), sector('Pszenica', 9, 240, 360)],
  }),
  demoMachine({
    id: 'PIVOT-05',
    name: 'Długie pole',
    lat: 52.138,
    lng: 17.415,
    armLength: 260,
    angle: 10,
    motion: 'front',
    crops: [crop('maize', 'Kukurydza na ziarno', 0, 360)],
    programName: 'Kukurydza dwa sektory',
    sectors: [sector('Wschód', 12, 0, 180), sector('Zachód', 25, 180, 360)],
  }),
];

/**
 * Builds the demo fleet, not started yet: the five machines above (IDs with the prefix, if any),
 * each with a weather station and soil probes, twenty times faster than life unless told otherwise.
 */
export function createDemoFleet(options: FleetOptions): Fleet {
  const idPrefix = options.idPrefix ?? '';
  const machines = DEMO_MACHINES.map((machine) => ({ ...machine, id: `${idPrefix}${machine.id}` }));
  const layout = { machines, ...surroundings(machines, createRandom(options.seed ?? 1), idPrefix) };
  return new Fleet(layout, { ...options, timeScale: options.timeScale ?? DEMO_TIME_SCALE });
}

/** Builds the demo fleet (createDemoFleet) and starts it. */
export async function startDemoFleet(options: FleetOptions): Promise<Fleet> {
  const fleet = createDemoFleet(options);
  await fleet.start();
  return fleet;
}

/** What a demo station would have reported over a past span: its readings, on the hour. */
export type StationHistory = { stationId: string; machineId: string; readings: WeatherReading[] };

const HOUR_MS = 3_600_000;

/**
 * The demo stations' past, hour by hour over [from, to) (ms): the weather model the live stations
 * run, at the same places and with the same region's days, so that a fresh demo has the season's
 * weather a soil-water balance needs (docs/advice.md). Without IDs' prefix, seed 1: the server's demo.
 */
export function demoWeatherHistory(from: number, to: number, seed = 1): StationHistory[] {
  const { stations } = surroundings(DEMO_MACHINES, createRandom(seed), '');
  return stations.map((station, index) => {
    const model = new WeatherModel(station, mixSeed(seed, index + 1), seed);
    const readings: WeatherReading[] = [];
    for (let ts = Math.ceil(from / HOUR_MS) * HOUR_MS; ts < to; ts += HOUR_MS) readings.push(model.readingAt(ts));
    return { stationId: station.id, machineId: station.machineId, readings };
  });
}
