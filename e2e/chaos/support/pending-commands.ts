import { randomUUID } from 'node:crypto';
import { LogListResponseSchema } from '@pivot/contracts';
import type { MisbehaviourKind } from '@pivot/simulator';
import { expect, inject } from 'vitest';
import type { ServerProcess } from '../../support/server-process';
import { MOTION_EVENTS, motionRecords, startWitnessedMachine } from './commands';
import { recordFigures } from './figures';
import { COMMAND_TIMEOUT_MS, signInAsAdmin, until } from './product';

/**
 * A command left pending by a killed server is settled 30 s past its timeout, by the next
 * start or the half-minute round of any instance (apps/server/src/modules/commands): up to a
 * minute past the timeout, and some slack for a busy machine.
 */
const SETTLED_WITHIN_MS = COMMAND_TIMEOUT_MS + 75_000;
const MISBEHAVIOURS = ['late', 'missing'] as const satisfies MisbehaviourKind[];

/**
 * Two motion commands wait for their machines, one that answers late and one that never
 * answers; the server is killed while both wait and started again, and each is asked again
 * with its Idempotency-Key, as a user whose answer was lost does. Each machine must carry its
 * command out once, and each command must end with an outcome in its record and in the activity log.
 */
export async function commandsThroughAKill(server: ServerProcess, brokerUrl: string) {
  const admin = await signInAsAdmin(server);
  const machines = await Promise.all(
    MISBEHAVIOURS.map(async (kind) => {
      const started = await startWitnessedMachine(admin, brokerUrl, `CHAOS-${kind.toUpperCase()}`);
      started.machine.misbehaveNext(kind);
      // The user's action: one key for the first try and the retry.
      return { ...started, kind, key: randomUUID() };
    }),
  );
  const move = (machine: (typeof machines)[number]) =>
    admin.call(
      'POST',
      `/api/sprinkler/${machine.sprinklerId}/motion`,
      { motion: 'front' },
      { 'Idempotency-Key': machine.key },
    );

  const firstTries = machines.map((machine) => move(machine).catch((error: unknown) => error));
  const delivered = () => machines.every((machine) => machine.witness.received('motion').length > 0);
  if (!(await until(delivered, 15_000))) {
    // A first try answered before the kill (say, refused) tells why nothing reached the machine.
    const answers = await Promise.all(
      firstTries.map((reply) => Promise.race([reply, new Promise((resolve) => setTimeout(resolve, 0, 'no answer'))])),
    );
    expect.fail(`the commands did not reach both machines in 15 s; first tries: ${JSON.stringify(answers)}`);
  }
  await server.kill();
  // Cut short: their answers never come.
  await Promise.all(firstTries);
  await server.restart();
  const retries = await Promise.all(machines.map((machine) => move(machine)));

  // Settled once the activity log tells of each command's end.
  await until(async () => {
    const response = await admin.call('GET', '/api/logs/?pageSize=100');
    const logged = new Set(
      LogListResponseSchema.parse(response.body)
        .data.filter((entry) => MOTION_EVENTS.includes(entry.eventType))
        .map((entry) => entry.sprinklerInternalId),
    );
    return machines.every((machine) => logged.has(machine.machineId));
  }, SETTLED_WITHIN_MS);
  if (!server.databaseUrl) await server.terminate();

  return Promise.all(
    machines.map(async (machine, index) => ({
      kind: machine.kind,
      carriedOut: machine.witness.carriedOut('motion').length,
      retry: `${retries[index]!.status} ${(retries[index]!.body as { code?: string } | undefined)?.code ?? ''}`.trim(),
      ...(await motionRecords(server, machine.machineId)),
    })),
  );
}

type MachineOutcome = Awaited<ReturnType<typeof commandsThroughAKill>>[number];

/** Records the figures, then holds each machine's command to: carried out once, one record, an outcome. */
export async function reportCommands(key: string, scenario: string, outcomes: MachineOutcome[]) {
  await recordFigures(inject('chaosFiguresDir'), {
    key,
    scenario,
    commands: outcomes.length,
    executedTwice: outcomes.filter((outcome) => outcome.carriedOut > 1).length,
    withoutOutcome: outcomes.reduce((sum, outcome) => sum + outcome.withoutOutcome, 0),
    note: outcomes
      .map(
        (outcome) =>
          `${outcome.kind} machine: carried out ${outcome.carriedOut}×, record ${outcome.outcomes.join('/') || 'none'}, retry answered ${outcome.retry}, log: ${outcome.logged.join('; ') || 'nothing'}`,
      )
      .join(' | '),
  });
  for (const outcome of outcomes) {
    expect(outcome.carriedOut, `${outcome.kind} machine: times carried out`).toBe(1);
    expect(outcome.outcomes.length, `${outcome.kind} machine: commands recorded for one action`).toBe(1);
    expect(outcome.withoutOutcome, `${outcome.kind} machine: commands without an outcome`).toBe(0);
  }
}
