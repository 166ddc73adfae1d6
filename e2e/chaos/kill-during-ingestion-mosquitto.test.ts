import { expect, inject, it } from 'vitest';
import { recordFigures } from './support/figures';
import { describeLosses, reportThroughAKill } from './support/ingestion';
import { startProductOnMosquitto } from './support/product';

it('b. kill -9 during ingestion on Mosquitto and PostgreSQL: loses no acknowledged report', async () => {
  const { servers, brokerUrl } = await startProductOnMosquitto();
  const outcome = await reportThroughAKill(servers[0]!, brokerUrl);
  await recordFigures(inject('chaosFiguresDir'), {
    key: 'b',
    scenario: 'b. kill -9 during ingestion, Mosquitto + PostgreSQL',
    reportsAcknowledged: outcome.acknowledged,
    reportsLost: outcome.lost.length,
    note: describeLosses(outcome),
  });
  expect(outcome.lost.length, 'acknowledged reports lost').toBe(0);
});
