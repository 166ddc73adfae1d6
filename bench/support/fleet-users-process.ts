/**
 * bench/fleet.ts's signed-in users in a process of their own, so that reading their streams does
 * not slow the controllers or the figures: each user has a browser tab's two streams open, the
 * machine list's (GET /api/sprinkler/events) and the alerts' (GET /api/alerts/events), and now
 * and then opens the machines table's first page (GET /api/sprinkler/page/, as the web app asks
 * for it: 25 machines by name, and their count) and a machine's page. It notes when each telemetry event arrives
 * against the report's own timestamp (the controllers' clock is this machine's), when each alarm
 * alert arrives, and how long the list and detail took.
 */
import { performance } from 'node:perf_hooks';
import { serveParent } from './child-script';

export type UsersRequest =
  | {
      type: 'start';
      /**
       * Each user's server instance, access token, the machines (their ids in the API) the user
       * may see, and whether the user is an administrator (a dealer, seeing every machine).
       */
      users: { baseUrl: string; access: string; sprinklerIds: number[]; admin: boolean }[];
      /** How often each user opens the list and then one of their machines' pages, ms. */
      browseEveryMs: number;
    }
  /** From now on, latencies are kept (the warm-up is over). */
  | { type: 'measure' }
  | { type: 'results' }
  | { type: 'stop' };

export type UsersEvent =
  | { type: 'started' }
  | { type: 'measuring' }
  | {
      type: 'results';
      /** Report timestamp → arrival on a list stream, ms, one per event and stream (a sample of them). */
      liveMs: number[];
      liveEvents: number;
      /** When an alarm alert (phase began) for each machine first reached each user's stream, by API id. */
      alarms: { sprinklerId: number; user: number; at: number }[];
      /** How long the list and a machine's page took, for the administrators and the farmers apart. */
      pagesMs: Record<'administrators' | 'farmers', { listMs: number[]; detailMs: number[] }>;
      /** Requests answered other than 200, and streams that ended on their own. */
      failures: number;
      streamsEnded: number;
    }
  | { type: 'stopped' };

/** Every event is timed, but only one in this many is kept: tens of thousands a minute would fill memory. */
const KEEP_ONE_IN = 10;

const controllers = new Set<AbortController>();
const timers = new Set<NodeJS.Timeout>();
let measuring = false;
let liveCounter = 0;
const results = {
  liveMs: [] as number[],
  liveEvents: 0,
  alarms: [] as { sprinklerId: number; user: number; at: number }[],
  pagesMs: {
    administrators: { listMs: [] as number[], detailMs: [] as number[] },
    farmers: { listMs: [] as number[], detailMs: [] as number[] },
  },
  failures: 0,
  streamsEnded: 0,
};

/** Reads a server-sent event stream, handing each event's name and data to `onEvent` as it arrives. */
async function follow(
  url: string,
  access: string,
  onEvent: (name: string, data: string, at: number) => void,
): Promise<void> {
  const controller = new AbortController();
  controllers.add(controller);
  const response = await fetch(url, {
    headers: { authorization: `Bearer ${access}`, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  if (response.status !== 200 || !response.body) throw new Error(`${url} answered ${response.status}`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  void (async () => {
    let pending = '';
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) {
        if (!controller.signal.aborted) results.streamsEnded += 1;
        return;
      }
      const at = Date.now();
      pending += decoder.decode(value, { stream: true });
      for (let end = pending.indexOf('\n\n'); end >= 0; end = pending.indexOf('\n\n')) {
        const block = pending.slice(0, end);
        pending = pending.slice(end + 2);
        let name = 'message';
        let data = '';
        for (const line of block.split('\n')) {
          if (line.startsWith('event: ')) name = line.slice(7);
          else if (line.startsWith('data: ')) data += line.slice(6);
        }
        onEvent(name, data, at);
      }
    }
  })();
}

const TIMESTAMP = /"timestamp":(\d+)/;
/** The machines table's first page, as the web app asks for it when the table opens. */
const FIRST_PAGE = '/api/sprinkler/page/?page=1&pageSize=25&sort=name&order=asc';

async function timedGet(baseUrl: string, path: string, access: string, samples: number[]): Promise<void> {
  const start = performance.now();
  try {
    const response = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${access}` } });
    await response.arrayBuffer();
    if (response.status !== 200) results.failures += 1;
    else if (measuring) samples.push(performance.now() - start);
  } catch {
    results.failures += 1;
  }
}

serveParent<UsersRequest, UsersEvent>(async (request, tell) => {
  switch (request.type) {
    case 'start': {
      for (const [index, user] of request.users.entries()) {
        const { baseUrl } = user;
        await follow(`${baseUrl}/api/sprinkler/events`, user.access, (name, data, at) => {
          if (name !== 'telemetry' || !measuring) return;
          results.liveEvents += 1;
          liveCounter += 1;
          if (liveCounter % KEEP_ONE_IN !== 0) return;
          const ts = TIMESTAMP.exec(data)?.[1];
          if (ts !== undefined) results.liveMs.push(at - Number(ts));
        });
        await follow(`${baseUrl}/api/alerts/events`, user.access, (name, data, at) => {
          if (name !== 'alert') return;
          const alert = JSON.parse(data) as { sprinklerId: number; kind: string; phase: string };
          if (alert.kind === 'alarm' && alert.phase === 'began') {
            results.alarms.push({ sprinklerId: alert.sprinklerId, user: index, at });
          }
        });
        // Users browse out of step with each other, as people do.
        const pages = results.pagesMs[user.admin ? 'administrators' : 'farmers'];
        const browse = () => {
          const id = user.sprinklerIds[Math.floor(Math.random() * user.sprinklerIds.length)];
          void timedGet(baseUrl, FIRST_PAGE, user.access, pages.listMs).then(() =>
            id === undefined ? undefined : timedGet(baseUrl, `/api/sprinkler/${id}/`, user.access, pages.detailMs),
          );
        };
        const first = setTimeout(() => {
          timers.delete(first);
          browse();
          const every = setInterval(browse, request.browseEveryMs);
          timers.add(every);
        }, Math.random() * request.browseEveryMs);
        timers.add(first);
      }
      tell({ type: 'started' });
      return;
    }
    case 'measure':
      measuring = true;
      tell({ type: 'measuring' });
      return;
    case 'results':
      tell({ type: 'results', ...results });
      return;
    case 'stop':
      for (const timer of timers) clearTimeout(timer);
      for (const controller of controllers) controller.abort();
      tell({ type: 'stopped' });
  }
});
