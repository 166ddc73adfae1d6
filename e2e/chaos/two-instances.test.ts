import { expect, inject, it } from 'vitest';
import { recordFigures } from './support/figures';
import { describeLosses, reportThroughAKill } from './support/ingestion';
import { startProductOnMosquitto } from './support/product';

/**
 * Two instances, each with its own SERVER_ID, on one Mosquitto and one database, share the
 * machines' reports through a shared subscription. One is killed with SIGKILL mid-stream and
 * started again; the other is asked what was stored. A report's identity is its machine and ts,
 * so the table cannot hold one twice: "stored once" is what was stored of what was acknowledged.
 */
it('e. two instances on one broker and database, one killed and started again: every acknowledged report stored once', async () => {
  const { servers, brokerUrl } = await startProductOnMosquitto([
    { SERVER_ID: 'chaos-first' },
    { SERVER_ID: 'chaos-second' },
  ]);
  const outcome = await reportThroughAKill(servers[0]!, brokerUrl, servers[1]!);
  await recordFigures(inject('chaosFiguresDir'), {
    key: 'e',
    scenario: 'e. two instances, one killed (kill -9) and restarted',
    reportsAcknowledged: outcome.acknowledged,
    reportsLost: outcome.lost.length,
    note: `stored once: ${outcome.acknowledged - outcome.lost.length} of ${outcome.acknowledged}, ${describeLosses(outcome)}`,
  });
  expect(outcome.lost.length, 'acknowledged reports lost').toBe(0);
});
