import { once } from 'node:events';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { INCIDENT_LOG_EVENTS } from '@pivot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_HELD_EVENTS } from '../../src/http/event-stream';
import { logEntries } from '../../src/modules/logs/logs.table';
import type { ApiClient } from '../support/api-client';
import { buildSprinkler, grant } from '../support/fixtures';
import { type TestApp, createTestApp } from '../support/test-app';

/** The live streams one instance holds in all, in these tests: a few, so that the limit is reached. */
const MAX_LIVE_STREAMS = 4;
/** The write timeout of the second instance, short so that a test sees a stalled stream closed. */
const SHORT_WRITE_TIMEOUT_MS = 1000;
/**
 * What the server may hold for one stalled stream, in these tests (bytes): its socket's buffer
 * and the events waiting. A machine stream holds at most one event of each kind besides a write
 * or two; the old code held every event it could not write, megabytes here.
 */
const STALLED_BOUND_BYTES = 1024 * 1024;
/**
 * Reports sent to a stalled stream: several megabytes of events, more than the kernel's buffers
 * of a loopback connection take when the client reads nothing.
 */
const MANY_REPORTS = 40_000;
const REPORTS_AT_ONCE = 500;

/** A machine's live report as every instance hears it from the broker; its `ts` names it. */
function announceReport(t: TestApp, internalId: string, ts: number): void {
  t.app.telemetry.announce({
    kind: 'telemetry',
    machineId: internalId,
    message: {
      v: 1,
      ts,
      status: 'front',
      angle: (ts % 36_000) / 100,
      distance: 400,
      speed: 50,
      pressure: 2.5,
      flow: 80,
    },
  });
}

/** Announces reports of `ts` from `first` on, a few hundred a turn of the event loop, as the broker brings them. */
async function announceReports(t: TestApp, internalId: string, first: number, count: number, eachTurn?: () => void) {
  for (let sent = 0; sent < count; sent += REPORTS_AT_ONCE) {
    for (let index = sent; index < Math.min(count, sent + REPORTS_AT_ONCE); index += 1) {
      announceReport(t, internalId, first + index);
    }
    await nextTurn();
    eachTurn?.();
  }
}

/**
 * The `ts` of each telemetry event in a stream's text, in the order they came. Only whole lines
 * count: the text read so far may end inside an event.
 */
function reportTimes(text: string): number[] {
  return [...text.matchAll(/^event: telemetry\ndata: (.+)\n/gm)].map(
    (match) => (JSON.parse(match[1]!) as { timestamp: number }).timestamp,
  );
}

/**
 * A stream whose client reads the answer's head and then stops reading, as a client gone quiet
 * does: its socket is read no more once Node's small buffer of the answer is full, the kernel's
 * buffers fill, and the rest is the server's to hold.
 */
async function openStalledStream(address: string, path: string, client: ApiClient) {
  const request = http.get(`${address}${path}`, { headers: { authorization: `Bearer ${client.access}` } });
  const [response] = (await once(request, 'response')) as [IncomingMessage];
  expect(response.statusCode).toBe(200);
  response.pause();
  // A client that reads nothing does not see the server close the connection either, until it reads again.
  const ended = new Promise<true>((resolve) => response.once('close', () => resolve(true)));
  response.setEncoding('utf8');
  let text = '';
  const readAgain = () => {
    response.on('data', (chunk: string) => (text += chunk));
    response.resume();
  };
  return {
    /** Reads from now on; resolves with everything the stream then brings within `ms`. */
    readFor: async (ms: number): Promise<string> => {
      readAgain();
      await new Promise((resolve) => setTimeout(resolve, ms));
      return text;
    },
    /** Reads from now on; resolves true once the stream has ended, false if it is still open after `ms`. */
    endsWithin: (ms: number): Promise<boolean> => {
      readAgain();
      return Promise.race([ended, new Promise<false>((resolve) => setTimeout(() => resolve(false), ms))]);
    },
    close: () => request.destroy(),
  };
}

/** A stream read as a browser reads it, collecting its text. */
async function openReadStream(address: string, path: string, client: ApiClient) {
  const controller = new AbortController();
  const response = await fetch(`${address}${path}`, {
    headers: { authorization: `Bearer ${client.access}` },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const read = { text: '' };
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      read.text += decoder.decode(value, { stream: true });
    }
  })().catch(() => undefined);
  return { read, close: () => controller.abort() };
}

/** The server's side of each live stream opened from now on, to see what its socket holds. */
function watchResponses(t: TestApp): ServerResponse[] {
  const responses: ServerResponse[] = [];
  t.app.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (request.url?.endsWith('/events')) responses.push(response);
  });
  return responses;
}

async function liveStreamsHealth(t: TestApp) {
  const health = await t.client().get('/api/health');
  return (health.body as { liveStreams: { open: number; bufferedKiB: number; closedStalled: number } }).liveStreams;
}

describe('a live stream whose client stops reading', () => {
  let t: TestApp;
  let quick: TestApp;
  let address: string;
  let quickAddress: string;
  let responses: ServerResponse[];
  beforeAll(async () => {
    t = await createTestApp({ MAX_LIVE_STREAMS: String(MAX_LIVE_STREAMS) });
    // A second instance over the same database, whose streams time out soon.
    quick = await createTestApp({ STREAM_WRITE_TIMEOUT_MS: String(SHORT_WRITE_TIMEOUT_MS) }, { database: t.database });
    address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    quickAddress = await quick.app.listen({ port: 0, host: '127.0.0.1' });
    responses = watchResponses(t);
  });
  afterAll(async () => {
    await quick.close();
    await t.close();
  });

  /** A machine granted to a farmer, who watches it. */
  async function watchedMachine(on: TestApp) {
    const machine = await buildSprinkler(on);
    const farmer = await on.signedInUser();
    await grant(on, machine.id, farmer.user.id);
    return { machine, farmer, path: `/api/sprinkler/${machine.id}/events` };
  }

  it('costs the server a bounded buffer, while a reading client on the same machine gets every event', async () => {
    const { machine, farmer, path } = await watchedMachine(t);
    const stalled = await openStalledStream(address, path, farmer.client);
    const stalledResponse = responses.at(-1)!;
    const reading = await openReadStream(address, path, farmer.client);
    try {
      const first = Date.now() - MANY_REPORTS;
      let mostHeld = 0;
      await announceReports(t, machine.internalId, first, MANY_REPORTS, () => {
        mostHeld = Math.max(mostHeld, stalledResponse.writableLength);
      });
      expect(mostHeld).toBeLessThan(STALLED_BOUND_BYTES);
      // Besides what its socket holds, the events the stream keeps for it: the latest report.
      const { bufferedKiB, open } = await liveStreamsHealth(t);
      expect(open).toBe(2);
      expect(bufferedKiB * 1024).toBeLessThan(STALLED_BOUND_BYTES);

      // Every event, however long a loaded machine takes to bring them: the bound is the buffer's, not the time's.
      const deadline = Date.now() + 40_000;
      while (reportTimes(reading.read.text).length < MANY_REPORTS && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(reportTimes(reading.read.text)).toEqual(Array.from({ length: MANY_REPORTS }, (_, index) => first + index));
    } finally {
      stalled.close();
      reading.close();
    }
  }, 60_000);

  it('gets the latest state once it reads again, without what it missed meanwhile', async () => {
    const { machine, farmer, path } = await watchedMachine(t);
    const stalled = await openStalledStream(address, path, farmer.client);
    try {
      const first = Date.now() - MANY_REPORTS;
      await announceReports(t, machine.internalId, first, MANY_REPORTS);
      t.app.telemetry.announce({ kind: 'presence', machineId: machine.internalId, message: { v: 1, online: false } });
      const text = await stalled.readFor(2000);
      const times = reportTimes(text);
      // What the kernel held, then the latest report and the presence, never an older one after a newer.
      expect(times.length).toBeLessThan(MANY_REPORTS / 2);
      expect(times.at(-1)).toBe(first + MANY_REPORTS - 1);
      expect([...times].sort((a, b) => a - b)).toEqual(times);
      expect(text).toMatch(/event: presence\ndata: \{"type":"presence","online":false\}\n\n$/);
    } finally {
      stalled.close();
    }
  });

  it(`holds at most ${MAX_HELD_EVENTS} alerts for a client behind, and is closed at once past them`, async () => {
    const { machine, farmer } = await watchedMachine(t);
    const stalled = await openStalledStream(address, '/api/alerts/events', farmer.client);
    try {
      const before = await liveStreamsHealth(t);
      // Alerts of 40 kB each (the machine's words in their detail): a few hundred fill the kernel's
      // buffers, and the server's, and more than it holds for a client behind.
      await t.database.db.insert(logEntries).values(
        Array.from({ length: 400 }, (_, index) => ({
          eventType: INCIDENT_LOG_EVENTS.alarm.began,
          sprinklerId: machine.id,
          sprinklerName: machine.name,
          event: `alarm ${index} `.padEnd(40_000, 'x'),
        })),
      );
      await t.app.alertFeed.lookOnce();
      // Long before the write timeout (30 s here): the alerts past the bound closed it.
      expect(await liveStreamsHealth(t)).toEqual({
        open: before.open - 1,
        bufferedKiB: 0,
        closedStalled: before.closedStalled + 1,
      });
      expect(await stalled.endsWithin(5000)).toBe(true);
    } finally {
      stalled.close();
    }
  });

  it('is closed once its socket has not drained for the write timeout, and health counts it', async () => {
    const { machine, farmer, path } = await watchedMachine(quick);
    const stalled = await openStalledStream(quickAddress, path, farmer.client);
    try {
      expect((await liveStreamsHealth(quick)).open).toBe(1);
      // On a busy machine the announcing outlasts the write timeout: the stream may close meanwhile.
      await announceReports(quick, machine.internalId, Date.now() - MANY_REPORTS, MANY_REPORTS);
      const deadline = Date.now() + SHORT_WRITE_TIMEOUT_MS * 5;
      while ((await liveStreamsHealth(quick)).open > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(await liveStreamsHealth(quick)).toEqual({ open: 0, bufferedKiB: 0, closedStalled: 1 });
      // Reading again, the client finds its stream ended, and its browser would open it afresh.
      expect(await stalled.endsWithin(5000)).toBe(true);
    } finally {
      stalled.close();
    }
  });

  it(`refuses a stream past ${MAX_LIVE_STREAMS} open on the instance, whoever opens it, in the page's language`, async () => {
    const { farmer, path } = await watchedMachine(t);
    const other = await t.signedInUser();
    const opened = [
      await openReadStream(address, path, farmer.client),
      await openReadStream(address, '/api/alerts/events', farmer.client),
      await openReadStream(address, '/api/alerts/events', other.client),
      await openReadStream(address, '/api/sprinkler/events', other.client),
    ];
    try {
      for (const [client, streamPath, language, words] of [
        [other.client, '/api/sprinkler/events', 'en', /as many live views open as it can hold/],
        [farmer.client, path, 'pl', /tyle widoków na żywo, ile może obsłużyć/],
      ] as const) {
        const refused = await client.get(streamPath, { headers: { 'accept-language': language } });
        expect(refused.status).toBe(503);
        expect(refused.body).toMatchObject({
          code: 'too_many_streams_on_server',
          message: expect.stringMatching(words),
        });
      }
      // One closed makes room for one more.
      opened.pop()!.close();
      await new Promise((resolve) => setTimeout(resolve, 200));
      opened.push(await openReadStream(address, '/api/sprinkler/events', other.client));
    } finally {
      for (const stream of opened) stream.close();
    }
  });
});
