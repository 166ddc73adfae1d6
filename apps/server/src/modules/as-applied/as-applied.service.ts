import { AS_APPLIED_FORMATS, type AsAppliedFormat, type AsAppliedQuery, parseDottedDate } from '@pivot/contracts';
import { AppError } from '../../errors';
import { withoutMarks } from '../../http/attachment';
import type { SignedInUser } from '../../http/request-context';
import { type SprinklerRow, type SprinklersService, areaMapPolygons } from '../sprinklers';
import { WATER_GRID_STEP_M, type WatermapService } from '../watermap';
import { type AsAppliedFeature, type AsAppliedLayer, featuresOf } from './as-applied-cells';
import { geoJsonChunks } from './as-applied-geojson';
import { MAX_TIME_LOGS, type TaskDay, type TaskMachine, taskDataEntries } from './isoxml';
import { shapefileParts } from './shapefile';
import { zipChunks } from './zip-stream';

/** As the watermap: a year at most. */
const LONGEST_RANGE_DAYS = 366;
const DAY_MS = 86_400_000;

export type AsAppliedFile = { filename: string; chunks: AsyncIterable<string | Uint8Array> };

/** dd.mm.yyyy (checked by the query's schema) as YYYY-MM-DD. */
function isoDate(dotted: string): string {
  return parseDottedDate(dotted)!.toISOString().slice(0, 10);
}

/**
 * A name every zip tool and GIS takes for the files inside the zip: ASCII letters, digits,
 * hyphens and underscores (Polish letters lose their marks).
 */
function plainName(text: string): string {
  return withoutMarks(text)
    .replace(/[^A-Za-z0-9-]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** The range's first and last local day (YYYY-MM-DD), and how many days it holds. */
type Days = { first: string; last: string; count: number };

/** What a layer needs of a machine, in its row's form or its list item's. */
type MachineLocated = { name: string; internalId: string; lat: string | number; lng: string | number };

/** The query's days as YYYY-MM-DD; a range over a year is refused, as the watermap refuses it. */
function daysOf(query: AsAppliedQuery): Days {
  const [first, last] = [isoDate(query.start), isoDate(query.stop)];
  if ((Date.parse(last) - Date.parse(first)) / DAY_MS >= LONGEST_RANGE_DAYS) throw new AppError('validation_error');
  return { first, last, count: (Date.parse(last) - Date.parse(first)) / DAY_MS + 1 };
}

async function* streamed(features: Iterable<AsAppliedFeature>): AsyncGenerator<AsAppliedFeature> {
  yield* features;
}

/**
 * A user's water, out, as farm software reads it: a machine's as-applied map over a range of
 * days, each watered grid cell a polygon with its depth, volume and times.
 */
export class AsAppliedService {
  constructor(
    private readonly deps: {
      sprinklers: Pick<SprinklersService, 'accessible' | 'list'>;
      watermap: Pick<WatermapService, 'appliedWater' | 'appliedWaterByDay'>;
      /** The server's time zone: the task data's TimeLog writes local times. */
      timeZone: string;
    },
  ) {}

  /**
   * The machine's as-applied map from `start` to `stop` (local calendar days, both included) in
   * `format`. The water is counted before anything is written: a machine the user may not see
   * or a range over a year is refused with its error, not a broken file.
   */
  async ofMachine(
    user: SignedInUser,
    sprinklerId: number,
    query: AsAppliedQuery,
    format: AsAppliedFormat,
  ): Promise<AsAppliedFile> {
    const sprinkler = await this.deps.sprinklers.accessible(user, sprinklerId);
    const days = daysOf(query);
    const filename = `${sprinkler.name} ${query.start}-${query.stop}.${AS_APPLIED_FORMATS[format]}`;
    if (format === 'isoxml') {
      const machine = this.taskMachine(sprinkler, days);
      return { filename, chunks: zipChunks(taskDataEntries(user.email, [machine], this.deps.timeZone)) };
    }
    const features = featuresOf(await this.layerOf(sprinkler, days), WATER_GRID_STEP_M);
    if (format === 'geojson') return { filename, chunks: geoJsonChunks(streamed(features)) };
    const baseName =
      plainName(`${sprinkler.name}_${days.first}_${days.last}`) || `as-applied_${days.first}_${days.last}`;
    return { filename, chunks: zipChunks(shapefileParts(baseName, [...features])) };
  }

  /**
   * Every machine the user may see, as one as-applied map from `start` to `stop`: a
   * FeatureCollection of them all, or a zip with a shapefile per machine (its files named after
   * the machine and its id, two machines of one name apart). Machines without water in the range
   * are left out; a zip of none holds one empty shapefile, which a GIS opens as an empty layer.
   * Written a machine at a time, so a dealer's hundreds of machines never sit in memory together.
   */
  async ofFleet(user: SignedInUser, query: AsAppliedQuery, format: AsAppliedFormat): Promise<AsAppliedFile> {
    const days = daysOf(query);
    const machines = (await this.deps.sprinklers.list(user)).sort((a, b) => a.name.localeCompare(b.name));
    const filename = `as-applied ${query.start}-${query.stop}.${AS_APPLIED_FORMATS[format]}`;
    const layers = () => this.layersOf(machines, days);
    if (format === 'geojson') {
      return {
        filename,
        chunks: geoJsonChunks(
          (async function* () {
            for await (const { layer } of layers()) yield* featuresOf(layer, WATER_GRID_STEP_M);
          })(),
        ),
      };
    }
    if (format === 'isoxml') {
      if (machines.length * days.count > MAX_TIME_LOGS) {
        throw new AppError('validation_error', {
          issues: [
            {
              path: 'query.stop',
              message: `At most ${MAX_TIME_LOGS} machine-days fit in one task data set: ask for fewer days`,
            },
          ],
        });
      }
      const { sprinklers } = this.deps;
      const taskMachine = (sprinkler: SprinklerRow) => this.taskMachine(sprinkler, days);
      const taskMachines = async function* () {
        for (const { id } of machines) yield taskMachine(await sprinklers.accessible(user, id));
      };
      return { filename, chunks: zipChunks(taskDataEntries(user.email, taskMachines(), this.deps.timeZone)) };
    }
    const entries = async function* () {
      let none = true;
      for await (const { machine, layer } of layers()) {
        none = false;
        yield* shapefileParts(plainName(`${machine.name}_${machine.id}_${days.first}_${days.last}`), [
          ...featuresOf(layer, WATER_GRID_STEP_M),
        ]);
      }
      if (none) yield* shapefileParts(`as-applied_${days.first}_${days.last}`, []);
    };
    return { filename, chunks: zipChunks(entries()) };
  }

  /** A machine as the task data writes it: its field, and its water a day at a time, counted as the day before has been written. */
  private taskMachine(
    sprinkler: MachineLocated & Pick<SprinklerRow, 'armLength' | 'areaMap'>,
    days: Days,
  ): TaskMachine {
    const { watermap } = this.deps;
    const centre = { lat: Number(sprinkler.lat), lng: Number(sprinkler.lng) };
    return {
      name: sprinkler.name,
      centre,
      armLength: sprinkler.armLength,
      field: areaMapPolygons(sprinkler.areaMap, 'field'),
      days: (async function* (): AsyncGenerator<TaskDay> {
        for await (const { date, cells } of watermap.appliedWaterByDay(sprinkler.internalId, days.first, days.last)) {
          yield { date, features: [...featuresOf({ machine: sprinkler.name, centre, cells }, WATER_GRID_STEP_M)] };
        }
      })(),
    };
  }

  /** Each machine's layer with water in the range, counted as the one before has been written. */
  private async *layersOf<Machine extends MachineLocated>(
    machines: Machine[],
    days: Days,
  ): AsyncGenerator<{ machine: Machine; layer: AsAppliedLayer }> {
    for (const machine of machines) {
      const layer = await this.layerOf(machine, days);
      if (layer.cells.length > 0) yield { machine, layer };
    }
  }

  private async layerOf(machine: MachineLocated, { first, last }: Days): Promise<AsAppliedLayer> {
    return {
      machine: machine.name,
      centre: { lat: Number(machine.lat), lng: Number(machine.lng) },
      cells: await this.deps.watermap.appliedWater(machine.internalId, first, last),
    };
  }
}
