import { ProgramDataSchema, TopicIdSchema } from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import { generateMachineSites, surroundings } from '../src/fleet-layout';
import { bearingAndDistance } from '../src/geo';
import { createRandom } from '../src/random';

function layout(seed: number, count = 12, idPrefix = '') {
  const random = createRandom(seed);
  const machines = generateMachineSites(count, random, idPrefix);
  return { machines, ...surroundings(machines, random, idPrefix) };
}

describe('fleet layout', () => {
  it('builds the same fleet from the same seed, with IDs SIM-0001, WS-0001 and SOIL-0001', () => {
    expect(layout(3)).toEqual(layout(3));
    expect(layout(3)).not.toEqual(layout(4));
    const { machines, stations, sensors } = layout(3, 12, 'x-');
    expect(machines.map((machine) => machine.id).slice(0, 2)).toEqual(['x-SIM-0001', 'x-SIM-0002']);
    expect(stations[0]!.id).toBe('x-WS-0001');
    expect(sensors[0]!.id).toBe('x-SOIL-0001');
    for (const { id } of [...machines, ...stations, ...sensors]) expect(TopicIdSchema.safeParse(id).success).toBe(true);
  });

  it('keeps fields apart, each machine with a valid program of two to four sectors', () => {
    const { machines } = layout(8, 30);
    for (const machine of machines) {
      expect(machine.armLength).toBeGreaterThanOrEqual(250);
      expect(machine.armLength).toBeLessThanOrEqual(600);
      const sectors = ProgramDataSchema.parse(machine.program!.programData).features;
      expect(sectors.length).toBeGreaterThanOrEqual(2);
      expect(sectors.length).toBeLessThanOrEqual(4);
      for (const other of machines.filter((each) => each !== machine)) {
        const { distance } = bearingAndDistance(machine, [other.lng, other.lat]);
        expect(distance).toBeGreaterThan(machine.armLength + other.armLength);
      }
    }
  });

  it('puts a weather station within 2 km of each machine and two to four probes inside its circle', () => {
    const { machines, stations, sensors } = layout(5, 20);
    for (const machine of machines) {
      const [station, ...others] = stations.filter((each) => each.machineId === machine.id);
      expect(others).toHaveLength(0);
      expect(bearingAndDistance(machine, [station!.lng, station!.lat]).distance).toBeLessThanOrEqual(2000);
      const probes = sensors.filter((sensor) => sensor.machineId === machine.id);
      expect(probes.length).toBeGreaterThanOrEqual(2);
      expect(probes.length).toBeLessThanOrEqual(4);
      for (const probe of probes) {
        expect(bearingAndDistance(machine, [probe.lng, probe.lat]).distance).toBeLessThan(machine.armLength);
      }
    }
  });
});
