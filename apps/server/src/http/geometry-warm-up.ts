import { AreaMapFileSchema, ProgramBodySchema } from '@pivot/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Parses of a small map and program each: enough for V8 to optimise the code a large one runs. */
const WARM_UP_PARSES = 100;
const WARM_UP_CORNERS = 200;

/** A valid field of `corners` corners, a circle about 300 m across. */
function circleField(corners: number): [number, number][][] {
  const ring = Array.from({ length: corners - 1 }, (_, index): [number, number] => {
    const angle = (2 * Math.PI * index) / (corners - 1);
    return [17.2 + 0.002 * Math.cos(angle), 52.3 + 0.0013 * Math.sin(angle)];
  });
  return [[...ring, ring[0]!]];
}

const yieldToRequests = () => new Promise((resolve) => setImmediate(resolve));

/**
 * The first large geometry body a process parses runs zod's code and the polygon check before V8
 * has optimised them: 150 ms of the event loop for 10,000 corners where the same body takes
 * 20 ms later (docs/benchmarks.md, issue 32). So the server parses small ones once after it
 * starts, a parse at a time between requests (a few milliseconds each, 15 at most while cold),
 * and the first farmer's import finds the code ready (bench:hostile-geometry: its loop block went
 * from 373 to 16 ms). Once a process: the schemas are the same for every app in it.
 */
async function warmUpGeometrySchemas(): Promise<void> {
  const polygon = { type: 'Polygon' as const, coordinates: circleField(WARM_UP_CORNERS) };
  const map = JSON.stringify({
    type: 'FeatureCollection',
    features: [{ type: 'Feature', geometry: polygon, properties: { kind: 'crop', name: 'Pole' } }],
  });
  const program = JSON.stringify({
    name: 'Program',
    programData: {
      type: 'FeatureCollection',
      features: [{ type: 'Feature', geometry: polygon, properties: { name: 'Sektor', rate: 10 } }],
    },
  });
  for (let parse = 0; parse < WARM_UP_PARSES; parse += 1) {
    AreaMapFileSchema.parse(JSON.parse(map));
    await yieldToRequests();
    ProgramBodySchema.parse(JSON.parse(program));
    await yieldToRequests();
  }
}

let warmedUp = false;

/** One run after start, not a repeating job: V8 keeps the optimised code for the process's life. */
export const geometryWarmUpPlugin = fp(
  async (app: FastifyInstance) => {
    if (warmedUp) return;
    warmedUp = true;
    let warmUp: Promise<void> = Promise.resolve();
    app.addHook('onReady', async () => {
      warmUp = warmUpGeometrySchemas().catch((error: unknown) =>
        app.log.error({ err: error }, 'warming up the geometry schemas failed'),
      );
    });
    app.addHook('onClose', () => warmUp);
  },
  { name: 'geometry-warm-up' },
);
