import type { LogEntry } from '@pivot/contracts';
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
  untilWatering,
} from './support/autopilot';
import { until } from './support/product';

it('h1. kill -9 when the machine receives the program: the start is taken up after a restart, the machine started once', async () => {
  const { server, admin, due, killedAt, restartMs } = await killMidStart(
    (command) => command.type === 'program',
    'embedded',
  );
  // The claim goes stale, the start cut short is told, and a new start goes through.
  expect(await untilWatering(admin, due.sprinklerId, CLAIM_STALE_MS + 20_000), 'the machine started').toBe(true);
  const startedMs = Date.now() - killedAt;
  await pause(LOOKS_AFTER);
  // The program of the start cut short ends in the log too: its outcome unknown (the server died
  // waiting), or confirmed by the machine's answer that reached the restarted server, or both.
  const programEnds = (log: LogEntry[]) => count(log, 'program_send_failure') + count(log, 'program_sent');
  await until(async () => programEnds(await machineLog(admin, due.machineId)) >= 2, SETTLED_MS);
  const outcome = await startOutcome(server, admin, due);
  await reportStart(
    'h1',
    'h1. autopilot start, kill -9 at the program (embedded broker + PGlite)',
    outcome,
    `restart took ${(restartMs / 1000).toFixed(1)} s, started ${(startedMs / 1000).toFixed(1)} s after the kill`,
  );
  expectWholeStart(outcome);
  // The start cut short sent its program (which the machine carried out); the one that went through
  // sent it again. A start that failed meanwhile (told as such) may have sent one more: at most one a start begun.
  const programCommands = outcome.commands.filter((command) => command.type === 'program').length;
  expect(outcome.programs, 'programs carried out').toBeGreaterThanOrEqual(2);
  expect(outcome.programs, 'programs carried out: at most one per start begun').toBeLessThanOrEqual(programCommands);
  expect(
    outcome.log.filter((entry) => entry.eventType === 'sprinkler_autopilot_start_failed').map((entry) => entry.event),
  ).toEqual(['interrupted']);
  expect(programEnds(outcome.log), 'the ends of the two programs in the log').toBeGreaterThanOrEqual(2);
  expect(
    count(outcome.log, 'sprinkler_autopilot_started_again'),
    'the start cut short, then the one that went through',
  ).toBe(1);
});
