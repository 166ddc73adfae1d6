import {
  EARTH_RADIUS_M,
  MACHINE_LIMITS,
  METRES_PER_DEGREE,
  type Position,
  type ProgramData,
  type SprinklerDetail,
} from '@pivot/contracts';
import { numberFormat } from '@/i18n/number-format';

/**
 * Whether imported sectors lie where the machine can water them: a file with latitude and
 * longitude swapped, or of another field, makes valid sectors thousands of kilometres away,
 * and nothing on the map would show them. The reach is the machine's arm (the length it reports,
 * else its arm as drawn) plus an end gun's throw; before the machine has told its arm, the
 * longest arm there is.
 */
export type MachineReach = { centre: Position; reachM: number; armKnown: boolean };

export type FarSector = { name: string; distanceM: number };

export type ReachCheck = {
  /** The sectors wholly beyond the reach, nearest first. */
  far: FarSector[];
  /** Whether, with each position's two numbers swapped, every sector would be within reach. */
  fitsSwapped: boolean;
};

const RADIANS = Math.PI / 180;

/** Metres along the great circle between two [longitude, latitude] positions. */
function greatCircleM([lng1 = 0, lat1 = 0]: Position, [lng2 = 0, lat2 = 0]: Position): number {
  const a =
    Math.sin(((lat2 - lat1) * RADIANS) / 2) ** 2 +
    Math.cos(lat1 * RADIANS) * Math.cos(lat2 * RADIANS) * Math.sin(((lng2 - lng1) * RADIANS) / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

function lineLengthM(positions: readonly Position[]): number {
  return positions.slice(1).reduce((sum, position, index) => sum + greatCircleM(positions[index]!, position), 0);
}

export function machineReach(sprinkler: SprinklerDetail): MachineReach {
  const centre: Position = [sprinkler.lng, sprinkler.lat];
  const drawn = sprinkler.currentPosition ? lineLengthM(sprinkler.currentPosition.geometry.coordinates) : 0;
  const arm = sprinkler.distance && sprinkler.distance > 0 ? sprinkler.distance : drawn;
  const armKnown = arm > 0;
  return {
    centre,
    reachM: (armKnown ? arm : MACHINE_LIMITS.armLengthM) + MACHINE_LIMITS.endGunMarginM,
    armKnown,
  };
}

/** Metres from the centre to the nearest point of the polygon's outer ring; 0 inside it. */
function distanceToPolygonM(centre: Position, ring: readonly Position[]): number {
  // On a plane around the centre, true to a fraction of a percent over the few km that matter here.
  const scaleX = Math.cos(centre[1] * RADIANS) * METRES_PER_DEGREE;
  const points = ring.map(([lng = 0, lat = 0]) => ({
    x: (lng - centre[0]) * scaleX,
    y: (lat - centre[1]) * METRES_PER_DEGREE,
  }));
  let inside = false;
  let nearest = Infinity;
  for (let i = 0, j = points.length - 1; i < points.length; j = i, i += 1) {
    const a = points[i]!;
    const b = points[j]!;
    if (a.y > 0 !== b.y > 0 && 0 < ((b.x - a.x) * -a.y) / (b.y - a.y) + a.x) inside = !inside;
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const t = dx === 0 && dy === 0 ? 0 : Math.max(0, Math.min(1, -(a.x * dx + a.y * dy) / (dx * dx + dy * dy)));
    nearest = Math.min(nearest, Math.hypot(a.x + t * dx, a.y + t * dy));
  }
  if (inside) return 0;
  // Far away the plane bends the distance: tell it along the earth, to the nearest corner.
  if (nearest > 100_000) return Math.min(...ring.map((position) => greatCircleM(centre, position)));
  return nearest;
}

const farSectors = (data: ProgramData, reach: MachineReach): FarSector[] =>
  data.features
    .map((sector) => ({
      name: sector.properties.name,
      distanceM: distanceToPolygonM(reach.centre, sector.geometry.coordinates[0] ?? []),
    }))
    .filter((sector) => sector.distanceM > reach.reachM)
    .sort((a, b) => a.distanceM - b.distanceM);

/** The program with each position's longitude and latitude swapped, as a file that wrote latitude first meant it. */
export function swapCoordinates(data: ProgramData): ProgramData {
  return {
    ...data,
    features: data.features.map((sector) => ({
      ...sector,
      geometry: {
        ...sector.geometry,
        coordinates: sector.geometry.coordinates.map((ring) =>
          ring.map(([longitude, latitude]): Position => [latitude, longitude]),
        ),
      },
    })),
  };
}

export function checkReach(data: ProgramData, reach: MachineReach): ReachCheck {
  const far = farSectors(data, reach);
  const swappable = data.features.every((sector) =>
    sector.geometry.coordinates.every((ring) => ring.every(([longitude]) => Math.abs(longitude) <= 90)),
  );
  return { far, fitsSwapped: far.length > 0 && swappable && farSectors(swapCoordinates(data), reach).length === 0 };
}

/** A distance as the warning words it: metres below a kilometre, then km (one decimal below 10 km). */
export function formatDistance(metres: number, locale: string): string {
  if (metres < 1000) return `${numberFormat(locale, { maximumFractionDigits: 0 }).format(metres)} m`;
  const digits = metres < 10_000 ? 1 : 0;
  return `${numberFormat(locale, { maximumFractionDigits: digits }).format(metres / 1000)} km`;
}
