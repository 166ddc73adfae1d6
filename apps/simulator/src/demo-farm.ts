import { type CropKey, type GeoJson, SOIL_TEXTURES, type SoilTextureKey } from '@pivot/contracts';
import {
  type MachineSite,
  type SensorSite,
  type StationSite,
  type Wedge,
  siteId,
  surroundings,
  wedgeProgram,
} from './fleet-layout';
import { type LatLng, positionAt, wedgeRing } from './geo';
import { designFlow } from './irrigation';
import type { ProgramUpload } from './pivot-machine';
import { createRandom } from './random';

/**
 * The farm's elevation, m above sea level: the Free State's highveld around Bothaville lies at
 * about 1,280 m, where the air pressure (87 kPa) lowers ET0 by FAO-56 Eq. 7 and 8; its stations
 * report it, as the protocol lets a station say.
 */
export const DEMO_ELEVATION_M = 1280;

/** A day of the year, `MM-DD`: when a crop emerges or is harvested, year after year. */
export type MonthDay = `${number}-${number}`;

/**
 * A crop area of a demo field: its crop and soil (the keys of the advice's tables), where it lies
 * on the circle (bearings, clockwise), and the farm's calendar for it: the day the crop emerges
 * and the day it is harvested, every year.
 */
export type DemoCropArea = {
  name: string;
  crop: CropKey;
  soil: SoilTextureKey;
  from: number;
  to: number;
  emerges: MonthDay;
  harvested: MonthDay;
};

/** A demo machine: where it stands, its field map for the dashboard, the program it runs and its crop areas. */
export type DemoMachine = MachineSite & {
  topSpeed: number;
  areaMap: GeoJson;
  program: ProgramUpload;
  /** The program's sectors as wedges, with the rates of a day when all its crop areas are in the field. */
  sectors: readonly Wedge[];
  cropAreas: readonly DemoCropArea[];
};

/**
 * The end tower's top speed, m/min: a real centre pivot's 2–3. At 2.4 a 400 m arm turns in 17.5 h
 * at 100 % and applies 5.7 mm at the design capacity; the demo's 260–520 m arms 3.7–7.4 mm.
 */
export const DEMO_TOP_SPEED_M_PER_MIN = 2.4;
/** Crops stop just short of the field's edge. */
const CROP_REACH = 0.98;
/** Probes sit at 30 cm, in the root zone of every demo crop. */
const DEMO_PROBE_DEPTH_CM = 30;
/**
 * The probes of a crop area stand together on one line from the pivot, a third of the way into the
 * area, at half and two thirds of the arm: one spot an agronomist chose as typical of the area,
 * which the arm waters in one go, so they agree, as two probes of one zone should.
 */
const PROBE_RADII = [0.5, 0.65] as const;
/** demoProbes puts this many probes in each crop area, in the areas' order. */
export const PROBES_PER_AREA = PROBE_RADII.length;
const PROBE_INTO_AREA = 1 / 3;

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
  site: Omit<MachineSite, 'program' | 'flow'> & { programName: string; sectors: Wedge[]; cropAreas: DemoCropArea[] },
): DemoMachine {
  const { programName, sectors, cropAreas, ...machine } = site;
  const shapeSeed = Number.parseInt(machine.id.replace(/\D/g, ''), 10);
  const areaMap: GeoJson = {
    type: 'FeatureCollection',
    features: [
      {
        type: 'Feature',
        properties: { kind: 'field', name: machine.name },
        geometry: { type: 'Polygon', coordinates: [fieldBoundary(machine, machine.armLength, shapeSeed)] },
      },
      ...cropAreas.map((area) => ({
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
    topSpeed: DEMO_TOP_SPEED_M_PER_MIN,
    areaMap,
    program: wedgeProgram(machine, machine.armLength, programName, sectors),
    sectors,
    cropAreas,
  };
}

const sector = (name: string, rate: number, from: number, to: number): Wedge => ({ name, rate, from, to });
const area = (
  name: string,
  crop: CropKey,
  soil: SoilTextureKey,
  [from, to]: [number, number],
  [emerges, harvested]: [MonthDay, MonthDay],
): DemoCropArea => ({ name, crop, soil, from, to, emerges, harvested });

/**
 * Five pivots on irrigated farmland of the Free State, South Africa, around Bothaville, where
 * centre pivots water maize, potatoes and soybean in the summer (October to April) and wheat in
 * the dry winter: some crop is under the pivots in every month, so the demo's seasons are true to
 * the day it is started (docs/simulator.md, "Demo fleet"). Its days are South Africa's
 * (Africa/Johannesburg) when the server's TIME_ZONE says so; by the default, Warsaw's.
 */
export const DEMO_MACHINES: readonly DemoMachine[] = [
  demoMachine({
    id: 'PIVOT-01',
    name: 'Pole za stodołą',
    lat: -27.352,
    lng: 26.762,
    armLength: 420,
    angle: 40,
    motion: 'front',
    cropAreas: [area('Kukurydza', 'maize-grain', 'loamy-sand', [0, 360], ['10-25', '04-13'])],
    programName: 'Kukurydza trzy sektory',
    sectors: [sector('Północ', 12, 300, 60), sector('Wschód', 18, 60, 180), sector('Południe i zachód', 10, 180, 300)],
  }),
  demoMachine({
    id: 'PIVOT-02',
    name: 'Łąka północna',
    lat: -27.269,
    lng: 26.705,
    armLength: 300,
    angle: 200,
    motion: 'back',
    cropAreas: [
      area('Pszenica', 'spring-wheat', 'silt-loam', [0, 180], ['06-15', '10-28']),
      area('Soja', 'soybean', 'loam', [180, 360], ['12-05', '04-24']),
    ],
    programName: 'Pszenica i soja',
    sectors: [sector('Pszenica', 8, 0, 180), sector('Soja', 20, 180, 360)],
  }),
  demoMachine({
    id: 'PIVOT-03',
    name: 'Pole przy lesie',
    lat: -27.428,
    lng: 26.605,
    armLength: 520,
    angle: 300,
    motion: 'front',
    cropAreas: [
      area('Ziemniaki', 'potato', 'sandy-loam', [30, 210], ['09-05', '01-28']),
      area('Kukurydza', 'maize-grain', 'sandy-loam', [210, 30], ['12-15', '06-03']),
    ],
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
    lat: -27.307,
    lng: 26.565,
    armLength: 360,
    angle: 120,
    motion: 'stop',
    cropAreas: [
      area('Soja', 'soybean', 'silt-loam', [0, 120], ['11-20', '04-09']),
      area('Ziemniaki', 'potato', 'loamy-sand', [120, 240], ['08-25', '01-17']),
      area('Pszenica', 'spring-wheat', 'loam', [240, 360], ['05-20', '10-02']),
    ],
    programName: 'Trzy uprawy',
    sectors: [sector('Soja', 18, 0, 120), sector('Ziemniaki', 15, 120, 240), sector('Pszenica', 9, 240, 360)],
  }),
  demoMachine({
    id: 'PIVOT-05',
    name: 'Długie pole',
    lat: -27.462,
    lng: 26.815,
    armLength: 260,
    angle: 10,
    motion: 'front',
    cropAreas: [area('Kukurydza na ziarno', 'maize-grain', 'sand', [0, 360], ['10-01', '03-20'])],
    programName: 'Kukurydza dwa sektory',
    sectors: [sector('Wschód', 12, 0, 180), sector('Zachód', 25, 180, 360)],
  }),
];

/** The soil probes of the demo fleet: two in each crop area, together, in the area's soil. */
export function demoProbes(machines: readonly DemoMachine[], idPrefix: string): SensorSite[] {
  const probes: SensorSite[] = [];
  for (const machine of machines) {
    for (const cropArea of machine.cropAreas) {
      const span = (((cropArea.to - cropArea.from) % 360) + 360) % 360 || 360;
      const bearing = cropArea.from + span * PROBE_INTO_AREA;
      const soil = SOIL_TEXTURES[cropArea.soil];
      for (const radius of PROBE_RADII) {
        const [lng, lat] = positionAt(machine, bearing, machine.armLength * radius);
        probes.push({
          id: siteId(idPrefix, 'SOIL', probes.length + 1),
          machineId: machine.id,
          lat: lat!,
          lng: lng!,
          depth: DEMO_PROBE_DEPTH_CM,
          // At field capacity until the history (or the fleet) says otherwise.
          moisture: soil.fieldCapacity * 100,
          soil,
        });
      }
    }
  }
  return probes;
}

/** The demo farm's weather stations, one by each machine (as `surroundings` places them), at the farm's elevation. */
export function demoStations(machines: readonly MachineSite[], seed: number, idPrefix: string): StationSite[] {
  const { stations } = surroundings(machines, createRandom(seed), idPrefix);
  return stations.map((station) => ({ ...station, elevation: DEMO_ELEVATION_M }));
}

/**
 * The program the farmer runs on `day` (`YYYY-MM-DD`): a sector over a crop area with no crop in
 * the field that day (harvested, or not yet sown) is dry (rate 0), as no one waters stubble or bare
 * ground; the others keep their rates, a forbidden zone stays forbidden.
 */
export function demoProgramOn(machine: DemoMachine, day: string): ProgramUpload {
  const sectors = machine.sectors.map((sector) => {
    if (sector.rate <= 0) return sector;
    const span = (((sector.to - sector.from) % 360) + 360) % 360 || 360;
    const middle = (sector.from + span / 2) % 360;
    const cropArea = machine.cropAreas.find((area) => {
      const areaSpan = (((area.to - area.from) % 360) + 360) % 360 || 360;
      return (((middle - area.from) % 360) + 360) % 360 < areaSpan;
    });
    return cropArea && !inSeason(cropArea, day) ? { ...sector, rate: 0 } : sector;
  });
  return wedgeProgram(machine, machine.armLength, machine.program.name, sectors);
}

/** The day (`YYYY-MM-DD`) the area's crop last emerged on or before `day`. */
export function lastEmergence(cropArea: DemoCropArea, day: string): string {
  const year = Number(day.slice(0, 4));
  const thisYear = `${year}-${cropArea.emerges}`;
  return thisYear <= day ? thisYear : `${year - 1}-${cropArea.emerges}`;
}

/** The day (`YYYY-MM-DD`) the crop that emerged on `emergence` is harvested. */
export function harvestAfter(cropArea: DemoCropArea, emergence: string): string {
  const year = Number(emergence.slice(0, 4));
  const sameYear = `${year}-${cropArea.harvested}`;
  return sameYear > emergence ? sameYear : `${year + 1}-${cropArea.harvested}`;
}

/** Whether the area's crop is in the field on `day` (`YYYY-MM-DD`): emerged and not yet harvested. */
export function inSeason(cropArea: DemoCropArea, day: string): boolean {
  return day <= harvestAfter(cropArea, lastEmergence(cropArea, day));
}
