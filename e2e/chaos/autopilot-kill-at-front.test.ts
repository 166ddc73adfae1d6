import { expect, it } from 'vitest';
import {
  CLAIM_STALE_MS,
  LOOKS_AFTER,
  SETTLED_MS,
  count,
  expectWholeStart,
  killMidStart,
  machineLog,
  pause,
  reportStart,
  startOutcome,
  startRecords,
  untilWatering,
} from './support/autopilot';
import { until } from './support/product';

it('h2. kill -9 when the machine receives front: the pass goes on after a restart, nothing started again', async () => {
  const { server, admin, due, killedAt, restartMs } = await killMidStart(
    (command) => command.type === 'motion' && command.motion === 'front',
    'mosquitto',
  );
  // The machine acted on front: it runs, and the restarted server knows the pass as the autopilot's.
  expect(await untilWatering(admin, due.sprinklerId, 15_000), 'the machine runs').toBe(true);
  // Looks past the claim's stale time: none starts it again.
  await pause(Math.max(LOOKS_AFTER, CLAIM_STALE_MS - (Date.now() - killedAt) + 3000));
  await until(
    async () => count(await machineLog(admin, due.machineId), 'sprinkler_motion_success', 'front') > 0,
    SETTLED_MS,
  );
  // A look of the restarted server finds the machine running and forgets the claim (on a loaded
  // machine its first looks may come late); PostgreSQL is read while the server runs.
  await until(async () => (await startRecords(server, due)).memory.startingSince === undefined, 30_000);
  const outcome = await startOutcome(server, admin, due);
  await reportStart(
    'h2',
    'h2. autopilot start, kill -9 at front (Mosquitto + PostgreSQL)',
    outcome,
    `restart took ${(restartMs / 1000).toFixed(1)} s`,
  );
  expectWholeStart(outcome);
  expect(outcome.programs, 'programs carried out').toBe(1);
  expect(count(outcome.log, 'program_sent'), 'the program in the log').toBe(1);
  expect(count(outcome.log, 'sprinkler_autopilot_start_failed'), 'a start told as failed').toBe(0);
});
