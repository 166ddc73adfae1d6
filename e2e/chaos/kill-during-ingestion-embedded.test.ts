import { expect, inject, it } from 'vitest';
import { recordFigures } from './support/figures';
import { EMBEDDED_BROKER_WINDOW_MS, describeLosses, reportThroughAKill } from './support/ingestion';
import { startEmbeddedProduct } from './support/product';

// 25 s alone, 62 s beside four busy loops, over 180 s in one clean clone's loaded suite stage: two
// starts of an embedded database and a controller's backlog to catch up.
it('a. kill -9 during ingestion on the embedded broker and PGlite (as `npm start` runs): loses at most what the broker acknowledged in its last moments', async () => {
  const { server, brokerUrl } = await startEmbeddedProduct();
  const outcome = await reportThroughAKill(server, brokerUrl);
  await recordFigures(inject('chaosFiguresDir'), {
    key: 'a',
    scenario: 'a. kill -9 during ingestion, embedded broker + PGlite',
    reportsAcknowledged: outcome.acknowledged,
    reportsLost: outcome.lost.length,
    note: `${describeLosses(outcome)}; bound: only reports acknowledged within ${EMBEDDED_BROKER_WINDOW_MS} ms before the kill, or by the dying process, may be lost`,
  });
  // Lost may be what the broker acknowledged in its last moments: within the window before the
  // kill, or as it landed on the connection it broke. Never what the restarted one acknowledged.
  const blamed = outcome.lost.filter((report) => report.sinceKill < -EMBEDDED_BROKER_WINDOW_MS || report.afterRestart);
  expect(blamed, 'reports acknowledged outside the embedded broker window, and lost').toEqual([]);
}, 360_000);
