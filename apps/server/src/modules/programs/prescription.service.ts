import {
  MAX_PRESCRIPTION_RATE_MM,
  type PrescriptionPreview,
  type PrescriptionRequestSchema,
  type PrescriptionUnit,
  type ValidationIssue,
} from '@pivot/contracts';
import type { z } from 'zod';
import { AppError } from '../../errors';
import { BoundedWork } from '../../http/bounded-work';
import type { SignedInUser } from '../../http/request-context';
import type { SprinklerRow, SprinklersService } from '../sprinklers';
import { readPrescriptionFile } from './prescription-file';
import type { PrescriptionZone } from './prescription-zone';
import { type RatedZone, prescriptionSectors } from './prescription-sectors';

/** A column named for a rate or dose is taken for the rate when none is asked for (English, Polish, the export's own). */
const RATE_NAMES = /rate|dose|dawk|depth|target|tgt|presc|amount|appl|water|wod|mm|m3/i;
/** A column named for cubic metres per hectare is taken in that unit when none is asked for. */
const PER_HECTARE_NAMES = /(m3|m³).?(per.?)?ha|per.?ha|_ha$/i;
const CUBIC_METRES_PER_HECTARE_IN_MM = 10;
/**
 * One prescription read at a time on an instance, four waiting, any more refused for a moment. A
 * read holds up to 64 MB unpacked (prescription-file.ts), and task data is unpacked and parsed
 * in steps that wait on promises: without the turn, a burst of uploads would all hold theirs at once.
 */
const READ_AT_ONCE = 1;
const READS_WAITING = 4;

/** A number, or a numeric text with a decimal point or comma ("12.5", "12,5"); null for anything else. */
function numberOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string' || !/^\s*-?\d+([.,]\d+)?\s*$/.test(value)) return null;
  return Number(value.replace(',', '.'));
}

function numericColumns(zones: readonly PrescriptionZone[]): string[] {
  const columns = new Set<string>();
  for (const zone of zones) {
    for (const [name, value] of Object.entries(zone.values)) if (numberOf(value) !== null) columns.add(name);
  }
  return [...columns];
}

/**
 * The zones with a rate in `column`, in mm. A zone without one (an empty cell of a grid, a
 * field's edge) prescribes nothing; a rate below 0 or above the limit is refused, with where.
 */
function ratedZones(zones: readonly PrescriptionZone[], column: string, unit: PrescriptionUnit): RatedZone[] {
  const rated: RatedZone[] = [];
  const issues: ValidationIssue[] = [];
  zones.forEach((zone, index) => {
    const value = numberOf(zone.values[column]);
    if (value === null) return;
    const rateMm = unit === 'mm' ? value : value / CUBIC_METRES_PER_HECTARE_IN_MM;
    if (rateMm < 0 || rateMm > MAX_PRESCRIPTION_RATE_MM) {
      if (issues.length < 10) issues.push({ path: `zones.${index}.${column}`, message: String(value) });
      return;
    }
    rated.push({ rings: zone.rings, rateMm });
  });
  if (issues.length > 0) throw new AppError('prescription_rate_out_of_range', { issues });
  if (rated.length === 0) throw new AppError('prescription_no_rates');
  return rated;
}

/**
 * A prescription made into a program for a machine, to be looked at before it is saved
 * (docs/prescriptions.md). Only whoever may change the machine's programs may, and nothing is
 * stored: the answer's program is saved with the programs' create call.
 */
export class PrescriptionService {
  private readonly reads = new BoundedWork(READ_AT_ONCE, READS_WAITING);

  constructor(private readonly deps: { sprinklers: Pick<SprinklersService, 'controllable'> }) {}

  async preview(
    actor: SignedInUser,
    sprinklerId: number,
    request: z.output<typeof PrescriptionRequestSchema>,
  ): Promise<PrescriptionPreview> {
    const sprinkler = await this.deps.sprinklers.controllable(actor, sprinklerId);
    return this.reads.run(() => this.made(sprinkler, request));
  }

  private async made(
    sprinkler: SprinklerRow,
    request: z.output<typeof PrescriptionRequestSchema>,
  ): Promise<PrescriptionPreview> {
    const zones = await readPrescriptionFile(request.fileName, Buffer.from(request.content, 'base64'));
    const columns = numericColumns(zones);
    const column = request.column ?? columns.find((name) => RATE_NAMES.test(name)) ?? columns[0];
    if (column === undefined || !columns.includes(column)) throw new AppError('prescription_no_rates');
    const unit = request.unit ?? (PER_HECTARE_NAMES.test(column) ? 'm3_per_ha' : 'mm');
    const rated = ratedZones(zones, column, unit);
    const circle = {
      centre: { lat: Number(sprinkler.lat), lng: Number(sprinkler.lng) },
      armLength: sprinkler.armLength,
    };
    return {
      columns,
      column,
      unit,
      alikeMm: request.alikeMm,
      zoneCount: rated.length,
      ...prescriptionSectors(rated, circle, request.alikeMm),
    };
  }
}
