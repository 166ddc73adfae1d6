import {
  type FarmRecord,
  type FarmRecordBody,
  type LogEventType,
  type RecordArea,
  dottedOfIsoDate,
  isForbiddenZone,
  isoOfDottedDate,
  loggedRecord,
} from '@pivot/contracts';
import type { Database, Queryable } from '../../db/client';
import { AppError } from '../../errors';
import type { ClientInfo, SignedInUser } from '../../http/request-context';
import { addDays, localDate, localMidnight } from '../../time/local-day';
import type { LogsService } from '../logs';
import { type SprinklerRow, type SprinklersService, loggedMachine } from '../sprinklers';
import { activeProgramOf } from '../telemetry';
import type { WeatherService } from '../weather';
import { listCropSeasons, runsOn } from '../crop-seasons';
import {
  type FarmRecordValues,
  deleteFarmRecord,
  findFarmRecord,
  insertFarmRecord,
  listFarmRecords,
  updateFarmRecord,
} from './farm-records.repository';
import type { FarmRecordRow } from './farm-records.table';

export type FarmRecordsServiceDeps = {
  db: Database;
  sprinklers: SprinklersService;
  logs: LogsService;
  weather: WeatherService;
  /** The farmers' time zone: a record's day is one of its calendar days, today at the latest. */
  timeZone: string;
};

/** How far back a probe's last report is looked for: a probe that went wrong may have stopped reporting long ago. */
const PROBE_SEARCH_MS = 366 * 24 * 60 * 60 * 1000;

/**
 * The farm's own records of a machine (docs/advice.md, "The farm's own records"): listed to
 * everyone the machine is granted to, made, changed and removed by those with control, each
 * change in the activity log. The water balance reads them at every answer, so a change shows at
 * once (water-balance.inputs.ts).
 */
export class FarmRecordsService {
  private changed?: (sprinklerId: number) => void;

  constructor(private readonly deps: FarmRecordsServiceDeps) {}

  /**
   * Who is told once a machine's records changed: the machines table's kept next irrigation is
   * stale then, and it lives in a module built on this one (advice), which hands itself here.
   */
  tellChangesTo(listener: (sprinklerId: number) => void): void {
    this.changed = listener;
  }

  async list(actor: SignedInUser, sprinklerId: number): Promise<FarmRecord[]> {
    const sprinkler = await this.deps.sprinklers.accessible(actor, sprinklerId);
    return (await listFarmRecords(this.deps.db, sprinkler.id)).map(presentFarmRecord);
  }

  async create(
    actor: SignedInUser,
    sprinklerId: number,
    body: FarmRecordBody,
    client: ClientInfo,
  ): Promise<FarmRecord> {
    const sprinkler = await this.deps.sprinklers.controllable(actor, sprinklerId);
    const values = await this.checked(sprinkler, body, actor);
    return this.deps.db
      .transaction(async (tx) => {
        const id = await insertFarmRecord(tx, sprinkler.id, values);
        await this.log(tx, 'sprinkler_record_added', { actor, sprinkler, client }, body);
        return presentFarmRecord((await findFarmRecord(tx, sprinkler.id, id))!);
      })
      .finally(() => this.changed?.(sprinkler.id));
  }

  async update(
    actor: SignedInUser,
    sprinklerId: number,
    recordId: number,
    body: FarmRecordBody,
    client: ClientInfo,
  ): Promise<FarmRecord> {
    const sprinkler = await this.deps.sprinklers.controllable(actor, sprinklerId);
    await this.existing(sprinkler, recordId);
    const values = await this.checked(sprinkler, body, actor);
    return this.deps.db
      .transaction(async (tx) => {
        await updateFarmRecord(tx, recordId, values);
        await this.log(tx, 'sprinkler_record_updated', { actor, sprinkler, client }, body);
        return presentFarmRecord((await findFarmRecord(tx, sprinkler.id, recordId))!);
      })
      .finally(() => this.changed?.(sprinkler.id));
  }

  async remove(actor: SignedInUser, sprinklerId: number, recordId: number, client: ClientInfo): Promise<void> {
    const sprinkler = await this.deps.sprinklers.controllable(actor, sprinklerId);
    const record = await this.existing(sprinkler, recordId);
    await this.deps.db
      .transaction(async (tx) => {
        await deleteFarmRecord(tx, recordId);
        await this.log(tx, 'sprinkler_record_removed', { actor, sprinkler, client }, bodyOf(record));
      })
      .finally(() => this.changed?.(sprinkler.id));
  }

  private async existing(sprinkler: SprinklerRow, recordId: number): Promise<FarmRecordRow> {
    const record = await findFarmRecord(this.deps.db, sprinkler.id, recordId);
    if (!record) throw new AppError('record_not_found');
    return record;
  }

  private async log(
    tx: Queryable,
    eventType: LogEventType,
    by: { actor: SignedInUser; sprinkler: SprinklerRow; client: ClientInfo },
    record: FarmRecordBody,
  ): Promise<void> {
    await this.deps.logs.record(tx, {
      eventType,
      actorUserId: by.actor.id,
      sprinkler: loggedMachine(by.sprinkler),
      event: loggedRecord(record),
      details: record.kind,
      ip: by.client.ip,
    });
  }

  /**
   * The record's values once its day (today at the latest), its area (the whole machine, a crop
   * zone running that day, a sector of the loaded program) or its probe (one that reported near
   * the machine) are known to be right.
   */
  private async checked(sprinkler: SprinklerRow, body: FarmRecordBody, actor: SignedInUser): Promise<FarmRecordValues> {
    const { db, weather, timeZone } = this.deps;
    const day = isoOfDottedDate(body.date);
    if (day > localDate(timeZone, Date.now())) throw new AppError('record_date_in_future');
    if (body.kind === 'probe') {
      const endOfDay = localMidnight(timeZone, addDays(day, 1)).getTime();
      const readings = await weather.probeReadings(
        db,
        { lat: Number(sprinkler.lat), lng: Number(sprinkler.lng) },
        sprinkler.armLength,
        new Date(endOfDay - PROBE_SEARCH_MS),
        new Date(endOfDay - 1),
      );
      const probe = readings.find((reading) => reading.sensorId === body.probe);
      if (!probe) {
        throw new AppError('probe_not_found', {
          issues: [{ path: 'body.probe', message: `No probe "${body.probe}" reported near this machine by that day` }],
        });
      }
      return {
        kind: 'probe',
        day,
        area: null,
        mm: null,
        probe: body.probe,
        moisture: body.moisture,
        probeLat: probe.lat,
        probeLng: probe.lng,
        recordedBy: actor.id,
      };
    }
    await this.refuseUnknownArea(sprinkler, body.area, day);
    return {
      kind: body.kind,
      day,
      area: body.area,
      mm: body.mm,
      probe: null,
      moisture: null,
      probeLat: null,
      probeLng: null,
      recordedBy: actor.id,
    };
  }

  private async refuseUnknownArea(sprinkler: SprinklerRow, area: RecordArea, day: string): Promise<void> {
    if (area.kind === 'machine') return;
    const { db } = this.deps;
    let known: boolean;
    if (area.kind === 'zone') {
      const seasons = await listCropSeasons(db, sprinkler.id);
      known = seasons.some((season) => season.name === area.name && runsOn(season, day));
    } else {
      const program = await activeProgramOf(db, sprinkler.internalId);
      known =
        program?.programData.features.some(
          (sector) => sector.properties.name === area.name && !isForbiddenZone(sector),
        ) ?? false;
    }
    if (!known) {
      const message =
        area.kind === 'zone'
          ? `No crop season named "${area.name}" runs on this machine that day`
          : `The machine's loaded program has no sector named "${area.name}"`;
      throw new AppError('record_area_not_found', { issues: [{ path: 'body.area.name', message }] });
    }
  }
}

/** A stored record as the API gives it. */
export function presentFarmRecord(row: FarmRecordRow): FarmRecord {
  const stamp = { id: row.id, createdAt: row.createdAt.getTime(), updatedAt: row.updatedAt.getTime() };
  const date = dottedOfIsoDate(row.day);
  if (row.kind === 'probe')
    return { ...stamp, kind: 'probe', date, probe: row.probe ?? '', moisture: row.moisture ?? 0 };
  return { ...stamp, kind: row.kind, date, area: row.area ?? { kind: 'machine' }, mm: row.mm ?? 0 };
}

function bodyOf(row: FarmRecordRow): FarmRecordBody {
  const { id: _id, createdAt: _created, updatedAt: _updated, ...body } = presentFarmRecord(row);
  return body;
}
