import { topics } from '@pivot/contracts';
import type { Fleet } from '@pivot/simulator';
import { connectAsync } from 'mqtt';

/** A broker of its own takes a burst of a thousand connections badly; a few dozen at a time is quick. */
const SESSIONS_AT_ONCE = 50;

/**
 * Leaves a shared broker as the benchmark found it: the machines' persistent sessions ended
 * (a clean connection with the same client id drops them) and what they, their weather
 * stations and soil probes kept retained cleared by empty retained messages.
 */
export async function forgetFleet(brokerUrl: string, fleet: Fleet): Promise<void> {
  const machineIds = fleet.machines.map((machine) => machine.id);
  for (let first = 0; first < machineIds.length; first += SESSIONS_AT_ONCE) {
    await Promise.all(
      machineIds.slice(first, first + SESSIONS_AT_ONCE).map(async (clientId) => {
        await (await connectAsync(brokerUrl, { clientId, clean: true, reconnectPeriod: 0 })).endAsync();
      }),
    );
  }
  const retained = [
    ...machineIds.flatMap((id) => [topics.presence(id), topics.program(id)]),
    ...fleet.stations.map((station) => topics.weather(station.machineId, station.id)),
    ...fleet.sensors.map((sensor) => topics.soil(sensor.machineId, sensor.id)),
  ];
  const cleaner = await connectAsync(brokerUrl, { reconnectPeriod: 0 });
  await Promise.all(retained.map((topic) => cleaner.publishAsync(topic, '', { qos: 1, retain: true })));
  await cleaner.endAsync();
}
