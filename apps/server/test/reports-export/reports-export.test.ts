import { REPORTS_CSV_COLUMNS } from '@pivot/contracts';
import { asc, eq, getTableColumns } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvNumber, csvRecord, csvText } from '../../src/modules/reports-export/reports-csv';
import { telemetry } from '../../src/modules/telemetry/telemetry.table';
import type { ApiClient } from '../support/api-client';
import { buildSprinkler, grant } from '../support/fixtures';
import { type TestApp, USER_PASSWORD, createTestApp } from '../support/test-app';

type Row = typeof telemetry.$inferSelect;

/** RFC 4180 records: quoted cells may hold commas, quotes (doubled) and line breaks. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      record.push(cell);
      cell = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      record.push(cell);
      records.push(record);
      record = [];
      cell = '';
      index += 1;
    } else cell += char;
  }
  if (cell !== '' || record.length > 0) throw new Error('The last record does not end with CRLF');
  return records;
}

/** Reports every 5 s, with values at the protocol's precision and beyond it. */
function reportsFrom(machineId: string, from: string, count: number): Row[] {
  const start = Date.parse(from);
  return Array.from({ length: count }, (_, index) => ({
    machineId,
    ts: new Date(start + index * 5_000),
    status: index % 7 === 0 ? ('stop' as const) : ('front' as const),
    angle: (index * 0.37) % 360,
    distance: 400.5,
    speed: index === 3 ? -0 : 60 + index / 3,
    pressure: 2.4 + index * 1e-9,
    flow: index === 5 ? 1e-7 : 85.2,
  }));
}

describe("a machine's reports as CSV", () => {
  let t: TestApp;
  let farmer: ApiClient;
  let stranger: ApiClient;
  let sprinklerId: number;
  let stored: Row[];
  let machineId: string;

  beforeAll(async () => {
    t = await createTestApp({ TIME_ZONE: 'Europe/Warsaw' });
    const pivot = await buildSprinkler(t, { name: 'Pole "Północ", 1' });
    sprinklerId = pivot.id;
    machineId = pivot.internalId;
    const user = await t.buildUser();
    await grant(t, pivot.id, user.id);
    farmer = t.client();
    await farmer.login(user.email, USER_PASSWORD);
    const other = await t.buildUser();
    stranger = t.client();
    await stranger.login(other.email, USER_PASSWORD);
    // 30 June from 23:50 local time (UTC+2) to 1 July 00:10, and an hour on 3 July.
    stored = [
      ...reportsFrom(pivot.internalId, '2026-06-30T21:50:00Z', 240),
      ...reportsFrom(pivot.internalId, '2026-07-03T08:00:00Z', 720),
    ];
    await t.database.db.insert(telemetry).values(stored);
  });
  afterAll(() => t.close());

  function download(client: ApiClient, start: string, stop: string) {
    return t.app.inject({
      url: `/api/sprinkler/${sprinklerId}/reports.csv?start=${start}&stop=${stop}`,
      headers: { authorization: `Bearer ${client.access}` },
    });
  }

  /** The stored rows as the CSV's cells. */
  function asCells(rows: Row[]): string[][] {
    return rows.map((row) => [
      row.ts.toISOString(),
      row.status,
      ...[row.angle, row.distance, row.speed, row.pressure, row.flow].map(csvNumber),
    ]);
  }

  function storedBetween(from: string, before: string): Row[] {
    return stored.filter((row) => row.ts >= new Date(from) && row.ts < new Date(before));
  }

  it("gives a local calendar day's reports, with the header, as an attachment naming the machine and dates", async () => {
    const response = await download(farmer, '01.07.2026', '01.07.2026');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="Pole _Polnoc_, 1 01.07.2026-01.07.2026.csv"; filename*=UTF-8''${encodeURIComponent('Pole "Północ", 1 01.07.2026-01.07.2026.csv')}`,
    );
    const [header, ...records] = parseCsv(response.payload);
    expect(header).toEqual([...REPORTS_CSV_COLUMNS]);
    // 1 July in Warsaw begins at 22:00 UTC on 30 June.
    expect(records).toEqual(asCells(storedBetween('2026-06-30T22:00:00Z', '2026-07-01T22:00:00Z')));
    expect(records[0]![0]).toBe('2026-06-30T22:00:00.000Z');
  });

  it('gives every report of a range, oldest first, parsing back to exactly the stored values', async () => {
    const response = await download(farmer, '29.06.2026', '05.07.2026');
    expect(response.statusCode).toBe(200);
    const [, ...records] = parseCsv(response.payload);
    expect(records).toHaveLength(stored.length);
    const parsed = records.map(([ts, status, angle, distance, speed, pressure, flow]) => ({
      ts: new Date(ts!),
      status,
      angle: Number(angle),
      distance: Number(distance),
      speed: Number(speed),
      pressure: Number(pressure),
      flow: Number(flow),
    }));
    const { machineId: _machineId, ...columns } = getTableColumns(telemetry);
    const expected = await t.database.db
      .select(columns)
      .from(telemetry)
      .where(eq(telemetry.machineId, machineId))
      .orderBy(asc(telemetry.ts));
    expect(parsed).toHaveLength(expected.length);
    // Bit for bit (Object.is: -0 is not 0): 1e-7 and 2.4 + 3e-9 come back as stored.
    parsed.forEach((report, index) => {
      for (const [name, value] of Object.entries(expected[index]!)) {
        if (name === 'ts') expect(report.ts.getTime()).toBe((value as Date).getTime());
        else expect(Object.is(report[name as keyof typeof report], value), `${name} of report ${index}`).toBe(true);
      }
    });
    expect(parsed[5]!.flow).toBe(1e-7);
  });

  it('gives a range of decades as quickly as the days with reports in it', async () => {
    const started = Date.now();
    const long = await download(farmer, '01.01.1990', '31.12.2060');
    expect(long.statusCode).toBe(200);
    expect(long.payload).toBe((await download(farmer, '30.06.2026', '03.07.2026')).payload);
    expect(parseCsv(long.payload)).toHaveLength(stored.length + 1);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('gives only the header for a range without reports', async () => {
    const response = await download(farmer, '01.01.2026', '31.01.2026');
    expect(response.statusCode).toBe(200);
    expect(response.payload).toBe(`${REPORTS_CSV_COLUMNS.join(',')}\r\n`);
  });

  it('answers 404 to a user without access, as for a machine that does not exist', async () => {
    const response = await download(stranger, '01.07.2026', '01.07.2026');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'sprinkler_not_found' });
    const missing = await t.app.inject({
      url: '/api/sprinkler/999999/reports.csv?start=01.07.2026&stop=01.07.2026',
      headers: { authorization: `Bearer ${farmer.access}` },
    });
    expect(missing.statusCode).toBe(404);
  });

  it('refuses a range that ends before it starts, or dates not in the API form', async () => {
    expect((await download(farmer, '02.07.2026', '01.07.2026')).statusCode).toBe(400);
    expect((await download(farmer, '2026-07-01', '01.07.2026')).statusCode).toBe(400);
  });

  it('keeps machine text a spreadsheet would run as a formula from running, and quotes per RFC 4180', () => {
    for (const text of ['=HYPERLINK("x")', '+1', '-1+2', '@SUM(A1)', '\tcmd', '\rcmd']) {
      expect(parseCsv(`${csvText(text)}\r\n`)).toEqual([[`'${text}`]]);
    }
    expect(csvText('front')).toBe('front');
    expect(csvText('a,b')).toBe('"a,b"');
    expect(csvText('say "hi"\nthere')).toBe('"say ""hi""\nthere"');
    const record = csvRecord({ ts: 0, status: 'front', angle: 0.1, distance: -0, speed: 1e21, pressure: 2.5, flow: 3 });
    expect(record).toBe('1970-01-01T00:00:00.000Z,front,0.1,-0,1e+21,2.5,3');
  });
});
