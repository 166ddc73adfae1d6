import { it } from 'vitest';
import { commandsThroughAKill, reportCommands } from './support/pending-commands';
import { startEmbeddedProduct } from './support/product';

it('c1. kill -9 with commands pending on the embedded broker and PGlite: each acts once and ends with a recorded outcome', async () => {
  const { server, brokerUrl } = await startEmbeddedProduct();
  const outcomes = await commandsThroughAKill(server, brokerUrl);
  await reportCommands('c1', 'c1. kill -9 with commands pending, embedded broker + PGlite', outcomes);
});
