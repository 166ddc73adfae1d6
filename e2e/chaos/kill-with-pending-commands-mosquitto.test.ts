import { it } from 'vitest';
import { commandsThroughAKill, reportCommands } from './support/pending-commands';
import { startProductOnMosquitto } from './support/product';

it('c2. kill -9 with commands pending on Mosquitto and PostgreSQL: each acts once and ends with a recorded outcome', async () => {
  const { servers, brokerUrl } = await startProductOnMosquitto();
  const outcomes = await commandsThroughAKill(servers[0]!, brokerUrl);
  await reportCommands('c2', 'c2. kill -9 with commands pending, Mosquitto + PostgreSQL', outcomes);
});
