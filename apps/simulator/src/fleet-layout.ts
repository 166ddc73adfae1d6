import type { Motion, SoilWater } from '@pivot/contracts';
import { type LatLng, latLngAt, wedgeRing } from './geo';
import { designFlow } from './irrigation';
import type { ProgramUpload } from './pivot-machine';
import type { Random } from './random';

/** Where a machine stands and how it starts. `id` is its machine ID (the server's internalId). */
export type MachineSite = LatLng & {
  id: string;
  name: string;
  /** m */
  armLength: number;
  /** Nominal flow while watering, m³/h. */
  flow: number;
  /** Top speed of the end tower, m/min; the machine's default (3) when not given. */
  topSpeed?: number;
  angle: number;
  motion: Motion;
  program: ProgramUpload | null;
};
/** A weather station beside a machine. */
/** A weather station by a machine; with its elevation (m above sea level) when it reports one. */
export type StationSite = LatLng & { id: string; machineId: string; elevation?: number };
/** A soil probe inside a machine's circle, in a soil of its own or the probe's default. */
export type SensorSite = LatLng & { id: string; machineId: string; depth: number; moisture: number; soil?: SoilWater };
export type FleetLayout = { machines: readonly MachineSite[]; stations: StationSite[]; sensors: SensorSite[] };

/** A pie wedge of a circle program, from one bearing clockwise to another. */
export type Wedge = { name: string; rate: number; from: number; to: number };

/** North-west corner of the generated fleet: farmland south-east of Poznań. */
const FLEET_ORIGIN: LatLng = { lat: 52.32, lng: 16.95 };
/** Room for the largest circle and a headland between fields. */
const FIELD_SPACING_M = 1500;
const FIELD_JITTER_M = 200;
/** Sectors reach a little past the arm so its tip never falls outside the program. */
const SECTOR_REACH = 1.05;
const STATION_MAX_DISTANCE_M = 2000;
const PROBE_DEPTHS_CM = [20, 30, 40] as const;

export function siteId(idPrefix: string, kind: 'SIM' | 'WS' | 'SOIL', number: number): string {
  return `${idPrefix}${kind}-${String(number).padStart(4, '0')}`;
}

/** A program of pie wedges over the machine's circle. */
export function wedgeProgram(centre: LatLng, armLength: number, name: string, wedges: readonly Wedge[]): ProgramUpload {
  return {
    name,
    programData: {
      type: 'FeatureCollection',
      features: wedges.map((wedge) => ({
        type: 'Feature',
        properties: { name: wedge.name, rate: wedge.rate },
        geometry: { type: 'Polygon', coordinates: [wedgeRing(centre, armLength * SECTOR_REACH, wedge.from, wedge.to)] },
      })),
    },
  };
}

/** Count machines on a grid of fields, each with its own program of two to four wedges. */
export function generateMachineSites(count: number, random: Random, idPrefix: string): MachineSite[] {
  const columns = Math.ceil(Math.sqrt(count));
  return Array.from({ length: count }, (_, index) => {
    const rowStart = latLngAt(FLEET_ORIGIN, 180, Math.floor(index / columns) * FIELD_SPACING_M);
    const gridPoint = latLngAt(rowStart, 90, (index % columns) * FIELD_SPACING_M);
    const centre = latLngAt(gridPoint, random.between(0, 360), random.between(0, FIELD_JITTER_M));
    const armLength = Math.round(random.between(250, 600));
    return {
      id: siteId(idPrefix, 'SIM', index + 1),
      name: `Pole ${index + 1}`,
      ...centre,
      armLength,
      // Built for the design capacity, give or take what its pump and nozzles really deliver.
      flow: Math.round(designFlow(armLength) * random.between(0.85, 1.15)),
      angle: Math.round(random.between(0, 360)) % 360,
      motion: random.pick(['front', 'back'] as const),
      program: wedgeProgram(centre, armLength, `Program ${index + 1}`, randomWedges(random)),
    };
  });
}

/** Splits the circle into two to four wedges at random; now and then one is a forbidden zone. */
function randomWedges(random: Random): Wedge[] {
  const weights = Array.from({ length: random.integer(2, 4) }, () => random.between(1, 3));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const forbidden = random.chance(0.1) ? random.integer(0, weights.length - 1) : -1;
  let from = random.between(0, 360);
  return weights.map((weight, index) => {
    const to = from + (weight / total) * 360;
    const rate = index === forbidden ? -1 : Math.round(random.between(5, 25));
    const wedge = { name: `Sektor ${index + 1}`, rate, from: Math.round(from) % 360, to: Math.round(to) % 360 };
    from = to;
    return wedge;
  });
}

/** One weather station within 2 km of each machine and two to four soil probes inside its circle. */
export function surroundings(
  machines: readonly MachineSite[],
  random: Random,
  idPrefix: string,
): Pick<FleetLayout, 'stations' | 'sensors'> {
  const stations: StationSite[] = [];
  const sensors: SensorSite[] = [];
  for (const machine of machines) {
    const stationDistance = random.between(machine.armLength + 100, STATION_MAX_DISTANCE_M);
    const station = latLngAt(machine, random.between(0, 360), stationDistance);
    stations.push({ id: siteId(idPrefix, 'WS', stations.length + 1), machineId: machine.id, ...station });
    for (let probe = random.integer(2, 4); probe > 0; probe -= 1) {
      const position = latLngAt(machine, random.between(0, 360), machine.armLength * random.between(0.25, 0.9));
      sensors.push({
        id: siteId(idPrefix, 'SOIL', sensors.length + 1),
        machineId: machine.id,
        ...position,
        depth: random.pick(PROBE_DEPTHS_CM),
        // Between the wilting point and field capacity of the probes' default soil, a silt loam.
        moisture: Math.round(random.between(17, 28)),
      });
    }
  }
  return { stations, sensors };
}
