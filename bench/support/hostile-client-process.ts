/**
 * The insider of bench:hostile-geometry, in a process of its own: it builds the hostile bodies
 * and messages here (their megabytes of JSON are not the server's work), sends them as a user
 * with control, a watcher or the machine's own controller, and meanwhile asks /api/health every
 * 20 ms, as a load balancer or a monitor would, keeping how long each answer took.
 */
import { MAX_SEASONS_PER_REQUEST, topics } from '@pivot/contracts';
import { HttpSession } from '@pivot/e2e/support/http-session';
import { connectAsync } from 'mqtt';
import { serveParent } from './child-script';
import { combRing, features, zigzagRing, zigzagShellWithHole } from '@pivot/server/test/support/hostile-shapes';

export type Shape = 'comb' | 'zigzag' | 'holes';
/** Polygons of a shape, side by side around the machine. */
export type ShapeSpec = { shape: Shape; count: number; corners: number };
export type Role = 'control' | 'watcher';

export type HostileRequest =
  | { type: 'start'; baseUrl: string; origin: { lng: number; lat: number } }
  | { type: 'login'; as: Role; email: string; password: string }
  | { type: 'area-map'; as: Role; sprinklerId: number; spec: ShapeSpec; emergence: string }
  | { type: 'program'; as: Role; sprinklerId: number; spec: ShapeSpec }
  | { type: 'get'; as: Role; path: string; times: number }
  | { type: 'publish'; brokerUrl: string; machineId: string; secret: string; spec: ShapeSpec; settleMs: number };

/** What one call (or run of calls) took, and the longest health answer meanwhile. */
export type Outcome = {
  type: 'outcome';
  statuses: number[];
  codes: string[];
  /** Each call's time, ms. */
  ms: number[];
  bytes: number;
  corners: number;
  longestHealthMs: number;
};
export type HostileEvent = { type: 'started' } | { type: 'ready' } | Outcome;

const PING_EVERY_MS = 20;
/** The status told for a call the server closed before its body was sent. */
export const CLOSED = -1;

let baseUrl = '';
let origin = { lng: 0, lat: 0 };
const sessions = new Map<Role, HttpSession>();
let longestHealthMs = 0;
let pinging = false;

async function ping(): Promise<void> {
  while (pinging) {
    const asked = performance.now();
    await fetch(`${baseUrl}/api/health`).then((response) => response.arrayBuffer());
    longestHealthMs = Math.max(longestHealthMs, performance.now() - asked);
    await new Promise((resolve) => setTimeout(resolve, PING_EVERY_MS));
  }
}

function rings(shape: Shape, corners: number, lng: number, lat: number): [number, number][][] {
  if (shape === 'comb') return [combRing(corners, lng, lat)];
  if (shape === 'zigzag') return [zigzagRing(corners, lng, lat)];
  return zigzagShellWithHole(corners, lng, lat);
}

function cornersOf(collection: { features: { geometry: { coordinates: unknown[][] } }[] }): number {
  return collection.features.reduce(
    (sum, feature) => sum + feature.geometry.coordinates.reduce((ringSum, ring) => ringSum + ring.length - 1, 0),
    0,
  );
}

/** Runs the work and tells what it took, with the longest health answer from its start until just after it. */
async function measured(work: () => Promise<{ status: number; code: string }[]>, bytes: number, corners: number) {
  longestHealthMs = 0;
  const ms: number[] = [];
  const started = performance.now();
  const answers = await work();
  ms.push(performance.now() - started);
  // The health call under way when the work ended is the one its block held.
  await new Promise((resolve) => setTimeout(resolve, 3 * PING_EVERY_MS));
  return { answers, ms, bytes, corners, longestHealthMs };
}

serveParent<HostileRequest, HostileEvent>(async (request, tell) => {
  switch (request.type) {
    case 'start':
      baseUrl = request.baseUrl;
      origin = request.origin;
      pinging = true;
      void ping();
      tell({ type: 'started' });
      return;
    case 'login': {
      const session = new HttpSession(baseUrl);
      await session.login(request.email, request.password);
      sessions.set(request.as, session);
      tell({ type: 'ready' });
      return;
    }
    case 'area-map':
    case 'program': {
      const { shape, count, corners } = request.spec;
      const collection = {
        type: 'FeatureCollection',
        features: features(
          count,
          (lng, lat) => rings(shape, corners, lng, lat),
          (index) =>
            request.type === 'program'
              ? { name: `Sector ${index + 1}`, rate: 12 }
              : {
                  kind: 'crop',
                  name: `Area ${index + 1}`,
                  // A season on each area, as many as an import may carry (MAX_SEASONS_PER_REQUEST).
                  ...(index < MAX_SEASONS_PER_REQUEST
                    ? {
                        cropSeasons: [
                          {
                            name: `Maize ${index + 1}`,
                            crop: 'maize-grain',
                            emergence: request.emergence,
                            soil: 'loam',
                          },
                        ],
                      }
                    : {}),
                },
          origin,
        ),
      };
      const body = request.type === 'program' ? { name: `Hostile ${Date.now()}`, programData: collection } : collection;
      const path =
        request.type === 'program'
          ? `/api/sprinkler/${request.sprinklerId}/program/`
          : `/api/sprinkler/${request.sprinklerId}/area-map/`;
      const session = sessions.get(request.as)!;
      const result = await measured(
        async () => {
          // A body over the route's limit is refused by its Content-Length: the server may answer
          // and close before the upload ends, which fetch reports as a failure.
          const answer = await session
            .call(request.type === 'program' ? 'POST' : 'PUT', path, body)
            .catch(() => ({ status: CLOSED, body: undefined }));
          return [{ status: answer.status, code: (answer.body as { code?: string } | undefined)?.code ?? '' }];
        },
        Buffer.byteLength(JSON.stringify(body)),
        cornersOf(collection),
      );
      tell(outcomeOf(result));
      return;
    }
    case 'get': {
      const session = sessions.get(request.as)!;
      const timings: number[] = [];
      const result = await measured(
        async () => {
          const answers = [];
          for (let index = 0; index < request.times; index += 1) {
            const started = performance.now();
            const answer = await session.call('GET', request.path);
            timings.push(performance.now() - started);
            answers.push({ status: answer.status, code: (answer.body as { code?: string } | undefined)?.code ?? '' });
          }
          return answers;
        },
        0,
        0,
      );
      tell({ ...outcomeOf(result), ms: timings });
      return;
    }
    case 'publish': {
      const { shape, count, corners } = request.spec;
      const programData = {
        type: 'FeatureCollection',
        features: features(
          count,
          (lng, lat) => rings(shape, corners, lng, lat),
          (index) => ({ name: `Sector ${index + 1}`, rate: 12 }),
          origin,
        ),
      };
      const payload = JSON.stringify({
        v: 1,
        program: { name: `Hostile ${Date.now()}`, uploadedAt: Date.now() - 1000, programData },
      });
      const controller = await connectAsync(request.brokerUrl, {
        clientId: request.machineId,
        username: request.machineId,
        password: request.secret,
        reconnectPeriod: 0,
      });
      const result = await measured(
        async () => {
          await controller.publishAsync(topics.program(request.machineId), payload, { qos: 1 });
          // The server takes it in after acknowledging it: its check is seen within the window.
          await new Promise((resolve) => setTimeout(resolve, request.settleMs));
          return [{ status: 0, code: '' }];
        },
        Buffer.byteLength(payload),
        cornersOf(programData),
      );
      await controller.endAsync();
      tell(outcomeOf(result));
      return;
    }
  }
});

function outcomeOf(result: Awaited<ReturnType<typeof measured>>): Outcome {
  return {
    type: 'outcome',
    statuses: result.answers.map((answer) => answer.status),
    codes: result.answers.map((answer) => answer.code),
    ms: result.ms,
    bytes: result.bytes,
    corners: result.corners,
    longestHealthMs: result.longestHealthMs,
  };
}
