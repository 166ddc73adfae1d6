/**
 * Live streams whose clients stop reading (issue 32): the compiled server `npm start` runs, in a
 * process of its own on the embedded PGlite and aedes. A farmer opens `--streams` streams of one
 * machine (the most one account may hold) over raw TCP sockets that read the answer's first bytes
 * and then stop reading, so the kernel's buffers fill and the server is left holding what it writes.
 * The machine's controller, with its own credentials, sends `--reports` reports through the broker
 * as fast as the server takes them (QoS 1, a few hundred in flight), while the administrator reads
 * the same machine's stream normally. It prints the server's RSS growth (from /proc, its highest
 * against before the streams opened) and the reading client's delay from each report's publish to
 * its event, and whether it got every one. Targets: RSS growth < 50 MB, every event within 1 s.
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { PROTOCOL_VERSION, SprinklerListItemSchema, topics } from '@pivot/contracts';
import { HttpSession } from '@pivot/e2e/support/http-session';
import { waitForMail } from '@pivot/e2e/support/outbox';
import { freePort, startServer } from '@pivot/e2e/support/server-process';
import mqtt, { type MqttClient } from 'mqtt';
import { readOptions } from './support/cli';
import { expectStatus } from './support/machine-setup';
import { residentMegabytes } from './support/proc';
import { formatNumber, printFigure, printNote, printSection, printTargeted, printTitle } from './support/report';
import { runBenchmark } from './support/run';
import { percentile, sleep } from './support/stats';

const RSS_GROWTH_TARGET_MB = 50;
const DELAY_TARGET_MS = 1000;
const ADMIN_EMAIL = 'admin@streams.bench';
const FARMER_EMAIL = 'farmer@streams.bench';
const PASSWORD = 'Streams-Bench-Password-1';
/** Reports the controller has sent and the broker has not acknowledged yet: an MQTT client with no cap stalls. */
const IN_FLIGHT = 300;
const RSS_SAMPLE_MS = 200;
/** After the last report, how long the reading client may take to get the rest before they count as missing. */
const LAST_EVENTS_WITHIN_MS = 30_000;
/** After the reading client has everything, how long RSS is still watched: a late peak counts too. */
const SETTLE_MS = 3000;
const execFileAsync = promisify(execFile);

/**
 * `--streams 0` measures the same reports without stalled streams: what the rest of the server
 * grows by. `--warmUpReports` are taken before the streams open and RSS is read: V8's heap grows
 * to its working size under thousands of reports a second (36–47 MB here, with no stream at all),
 * and a baseline read before that counts it as the streams' growth.
 */
const options = readOptions({ streams: 20, reports: 80_000, warmUpReports: 80_000 }, ['streams', 'warmUpReports']);

/**
 * A stream that reads its answer's head and then nothing more, as a client gone quiet does. It
 * does not see the server close it either (that comes after the data it does not read): the
 * server's health counts those it closed.
 */
type StalledStream = { destroy: () => void };

function openStalledStream(baseUrl: string, path: string, access: string): Promise<StalledStream> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    let opened = false;
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${access}\r\n\r\n`);
    });
    socket.once('data', (chunk: Buffer) => {
      const status = chunk.toString('latin1').split('\r\n', 1)[0] ?? '';
      if (!status.includes(' 200 ')) {
        socket.destroy();
        reject(new Error(`the stalled stream answered ${status}`));
        return;
      }
      opened = true;
      socket.pause();
      resolve({ destroy: () => socket.destroy() });
    });
    socket.on('close', () => {
      if (!opened) reject(new Error('the stalled stream closed before it opened'));
    });
    socket.on('error', () => undefined);
  });
}

/** A stream read as a browser reads it: each telemetry event's report time, and when it arrived. */
function readStream(baseUrl: string, path: string, access: string, onReport: (ts: number, at: number) => void) {
  const controller = new AbortController();
  const reading = (async () => {
    const response = await fetch(`${baseUrl}${path}`, {
      headers: { authorization: `Bearer ${access}` },
      signal: controller.signal,
    });
    if (response.status !== 200 || !response.body) throw new Error(`the reading stream answered ${response.status}`);
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let text = '';
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      const at = performance.now();
      text += decoder.decode(value, { stream: true });
      for (let end = text.indexOf('\n\n'); end >= 0; end = text.indexOf('\n\n')) {
        const block = text.slice(0, end);
        text = text.slice(end + 2);
        if (!block.startsWith('event: telemetry\n')) continue;
        const data = block.slice(block.indexOf('data: ') + 6);
        onReport((JSON.parse(data) as { timestamp: number }).timestamp, at);
      }
    }
  })();
  return { reading, close: () => controller.abort() };
}

/** The controller's connection: it answers the server's identify command, as a machine being added does. */
async function connectController(mqttUrl: string, machineId: string, secret: string): Promise<MqttClient> {
  const client = await mqtt.connectAsync(mqttUrl, {
    clientId: machineId,
    username: machineId,
    password: secret,
    protocolVersion: 4,
    reconnectPeriod: 0,
  });
  await client.subscribeAsync(topics.commands(machineId), { qos: 1 });
  client.on('message', (_topic, payload) => {
    const command = JSON.parse(payload.toString()) as { id: string; type: string; replyTo: string };
    if (command.type !== 'identify') return;
    const result = { name: 'Stalled streams', lat: 52.2, lng: 21.0, armLength: 400 };
    client.publish(command.replyTo, JSON.stringify({ v: PROTOCOL_VERSION, id: command.id, ok: true, result }), {
      qos: 1,
    });
  });
  await client.publishAsync(topics.presence(machineId), JSON.stringify({ v: PROTOCOL_VERSION, online: true }), {
    qos: 1,
    retain: true,
  });
  return client;
}

/**
 * Sends `count` reports as fast as the server takes them, `IN_FLIGHT` at a time, the nth dated
 * `firstTs + n` so that its event names it; `sentAt[n]` is when it went.
 */
async function sendReports(
  controller: MqttClient,
  machineId: string,
  count: number,
  firstTs: number,
  sentAt?: Float64Array,
): Promise<{ seconds: number }> {
  const topic = topics.telemetry(machineId);
  const start = performance.now();
  let next = 0;
  const publisher = async () => {
    while (next < count) {
      const index = next++;
      const report = {
        v: PROTOCOL_VERSION,
        ts: firstTs + index,
        status: 'front',
        angle: Math.round(((index * 0.01) % 360) * 100) / 100,
        distance: 400,
        speed: 50,
        pressure: 2.5,
        flow: 80,
      };
      if (sentAt) sentAt[index] = performance.now();
      await controller.publishAsync(topic, JSON.stringify(report), { qos: 1 });
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, publisher));
  return { seconds: (performance.now() - start) / 1000 };
}

/** An ordinary user, created by the administrator and activated through the mailed link. */
async function createFarmer(
  baseUrl: string,
  dataDir: string,
  admin: HttpSession,
): Promise<{ id: number; session: HttpSession }> {
  const created = expectStatus(
    await admin.call('POST', '/api/user/', { first_name: 'Stalled', last_name: 'Streams', email: FARMER_EMAIL }),
    201,
    'creating the farmer',
  ) as { id: number };
  const mail = await waitForMail(dataDir, FARMER_EMAIL);
  const token = new RegExp(`/activation/${created.id}/([A-Za-z0-9_-]+)`).exec(mail)?.[1];
  if (!token) throw new Error('no activation link in the mail');
  const farmer = new HttpSession(baseUrl);
  expectStatus(
    await farmer.call('POST', '/api/user/set-password/', {
      uid: created.id,
      token,
      newPassword: PASSWORD,
      repeatNewPassword: PASSWORD,
    }),
    200,
    'activating the farmer',
  );
  await farmer.login(FARMER_EMAIL, PASSWORD);
  return { id: created.id, session: farmer };
}

runBenchmark('stalled-streams', 600_000, async () => {
  await execFileAsync('npm', ['run', 'build', '-w', '@pivot/server'], { maxBuffer: 16 * 1024 * 1024 });
  const mqttPort = await freePort();
  const server = await startServer(
    {
      MQTT_PORT: String(mqttPort),
      DEMO_FLEET: 'false',
      ADMIN_EMAIL,
      ADMIN_PASSWORD: PASSWORD,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
    },
    'compiled',
  );
  const stalled: StalledStream[] = [];
  let controller: MqttClient | undefined;
  let reader: ReturnType<typeof readStream> | undefined;
  try {
    const pid = server.child()?.pid;
    const machineId = `STALL-${randomBytes(3).toString('hex').toUpperCase()}`;
    printTitle(
      `Stalled live streams: ${options.streams} never read while ${formatNumber(options.reports)} reports arrive`,
      {
        server: 'compiled (npm start), embedded PGlite and aedes, in a process of its own',
        stalled: `${options.streams} streams of machine ${machineId}, one farmer's, raw sockets that stop reading after the answer's head`,
        reading: "the administrator's stream of the same machine, read as it comes",
        controller: `its own credentials, QoS 1, ${IN_FLIGHT} reports in flight`,
      },
    );

    const admin = new HttpSession(server.baseUrl);
    await admin.login(ADMIN_EMAIL, PASSWORD);
    const secret = (
      expectStatus(await admin.call('POST', '/api/device/', { machineId }), 201, 'registering the controller') as {
        secret: string;
      }
    ).secret;
    controller = await connectController(`mqtt://127.0.0.1:${mqttPort}`, machineId, secret);
    const sprinkler = SprinklerListItemSchema.parse(
      expectStatus(await admin.call('POST', '/api/sprinkler/', { internalId: machineId }), 201, 'adding the machine'),
    );
    const farmer = await createFarmer(server.baseUrl, server.dataDir, admin);
    expectStatus(
      await admin.call('PATCH', `/api/sprinkler/${sprinkler.id}/permissions/`, { user: farmer.id, action: 'grant' }),
      200,
      'granting the farmer',
    );
    const warmUp = await sendReports(controller, machineId, options.warmUpReports, Date.now() - 2 * options.reports);
    await sleep(2000);
    const baselineMb = await residentMegabytes(pid);

    const path = `/api/sprinkler/${sprinkler.id}/events`;
    for (let index = 0; index < options.streams; index += 1) {
      stalled.push(await openStalledStream(server.baseUrl, path, farmer.session.access!));
    }
    /** Each report's time is its index after this, so its event names the report it carries. */
    const firstTs = Date.now() - options.reports;
    const sentAt = new Float64Array(options.reports);
    const delays = new Float64Array(options.reports).fill(Number.NaN);
    let received = 0;
    reader = readStream(server.baseUrl, path, admin.access!, (ts, at) => {
      const index = ts - firstTs;
      if (index < 0 || index >= options.reports || !Number.isNaN(delays[index]!)) return;
      delays[index] = at - sentAt[index]!;
      received += 1;
    });

    let peakMb = baselineMb;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peakMb = Math.max(peakMb, await residentMegabytes(pid));
        await sleep(RSS_SAMPLE_MS);
      }
    })();

    const { seconds: publishSeconds } = await sendReports(controller, machineId, options.reports, firstTs, sentAt);
    const lastSentAt = performance.now();
    while (received < options.reports && performance.now() - lastSentAt < LAST_EVENTS_WITHIN_MS) await sleep(100);
    await sleep(SETTLE_MS);
    sampling = false;
    await sampler;
    const endMb = await residentMegabytes(pid);
    const health = (await (await fetch(`${server.baseUrl}/api/health`)).json()) as Record<string, unknown>;

    printSection('The server');
    printFigure(
      'reports sent',
      `${formatNumber(options.reports)} in ${formatNumber(publishSeconds, 1)} s (${formatNumber(options.reports / publishSeconds)} /s)`,
    );
    if (options.warmUpReports > 0) {
      printFigure(
        'reports before the streams',
        `${formatNumber(options.warmUpReports)} in ${formatNumber(warmUp.seconds, 1)} s, taken before RSS is read`,
      );
    }
    printFigure('RSS before the streams', `${formatNumber(baselineMb)} MB`);
    printFigure('RSS at its highest', `${formatNumber(peakMb)} MB (${formatNumber(endMb)} MB at the end)`);
    printTargeted('RSS growth', peakMb - baselineMb, 'MB', { below: RSS_GROWTH_TARGET_MB });
    // Figures the server tells since it counts them (open, held for clients, closed as stalled).
    if (health.liveStreams !== undefined) printFigure('health: live streams', JSON.stringify(health.liveStreams));
    printFigure('health: memory', JSON.stringify(health.memoryMb));

    printSection('The reading client');
    const measured = [...delays].filter((delay) => !Number.isNaN(delay)).sort((a, b) => a - b);
    printTargeted('events received', received, `of ${formatNumber(options.reports)}`, {
      atLeast: options.reports,
    });
    if (measured.length > 0) {
      printFigure('delay p50', `${formatNumber(percentile(measured, 0.5))} ms`);
      printTargeted('delay p99', percentile(measured, 0.99), 'ms', { atMost: DELAY_TARGET_MS });
      printTargeted('delay, worst', measured.at(-1)!, 'ms', { atMost: DELAY_TARGET_MS });
    } else {
      printNote('no event arrived');
    }
  } finally {
    reader?.close();
    for (const stream of stalled) stream.destroy();
    await controller?.endAsync().catch(() => undefined);
    await server.stop();
  }
});
