import { expect, it } from 'vitest';
import type { ServerProcess } from '../support/server-process';
import {
  AUTOPILOT_ENV,
  LOOKS_AFTER,
  count,
  expectWholeStart,
  pause,
  reportStart,
  startDueMachine,
  startOutcome,
  turnToAuto,
  untilWatering,
} from './support/autopilot';
import { signInAsAdmin, startProductOnMosquitto } from './support/product';

/**
 * Two instances on one Mosquitto and one PostgreSQL, each looking every second. The machine
 * answers its first program late (past the command's timeout, as the simulator's `late` does,
 * carrying it out all the same): the instance that starts it waits 3 s on it, its start claimed,
 * while the other looks about three times and finds the claim; the start fails (unanswered, told
 * as such), and a later look starts the machine. Then some ten looks more: none starts it again.
 */
it('h3. two instances looking every second on one broker and database: the machine is started once', async () => {
  const { servers, brokerUrl } = await startProductOnMosquitto([
    { SERVER_ID: 'chaos-autopilot-one', ...AUTOPILOT_ENV },
    { SERVER_ID: 'chaos-autopilot-two', ...AUTOPILOT_ENV },
  ]);
  const [first, second] = servers as [ServerProcess, ServerProcess];
  const admin = await signInAsAdmin(first);
  const due = await startDueMachine(admin, brokerUrl, 'CHAOS-AUTO-TWO');
  due.machine.misbehaveNext('late');
  await turnToAuto(admin, due.sprinklerId);
  expect(await untilWatering(admin, due.sprinklerId, 30_000), 'the machine started').toBe(true);
  await pause(2 * LOOKS_AFTER);
  const outcome = await startOutcome(second, await signInAsAdmin(second), due);
  await reportStart(
    'h3',
    'h3. autopilot, two instances looking every second (Mosquitto + PostgreSQL)',
    outcome,
    'the first program answered late: that start failed, the next went through',
  );
  expectWholeStart(outcome);
  expect(outcome.programs, 'programs carried out: one per start begun').toBe(2);
  expect(
    outcome.log.filter((entry) => entry.eventType === 'sprinkler_autopilot_start_failed').map((entry) => entry.event),
  ).toEqual(['unanswered']);
  expect(count(outcome.log, 'sprinkler_autopilot_started_again'), 'the start that went through').toBe(1);
});
