import { describe, expect, it } from 'vitest';
import { CliError, parseCliArgs } from '../src/cli-options';

const BROKER = ['--broker', 'mqtt://localhost:1883'];

describe('command line', () => {
  it('reads a generated fleet with defaults', () => {
    expect(parseCliArgs([...BROKER, '--machines', '25'])).toEqual({
      kind: 'run',
      options: {
        brokerUrl: 'mqtt://localhost:1883',
        machines: 25,
        seed: 1,
        timeScale: null,
        idPrefix: '',
        clockOffsetMs: 0,
        credentialsFile: null,
        pressureSafetyS: null,
        misbehave: [],
        verbose: false,
      },
    });
  });

  it('reads misbehaviours to schedule, in the order given, at once without @, and the pressure safety delay', () => {
    const command = parseCliArgs([
      ...BROKER,
      '--demo',
      ...['--misbehave', 'PIVOT-02:cut-water@30', '--misbehave', 'PIVOT-02:restore-water@90.5'],
      ...['--misbehave=PIVOT-03:freeze', '--misbehave', 'SIM-0001:drop-off@0', '--misbehave', 'x_1:come-back@2'],
      ...['--misbehave', 'PIVOT-01:stop-unexpectedly@12', '--misbehave', 'PIVOT-03:unfreeze@45'],
      ...['--pressure-safety-s', '600'],
    ]);
    expect(command).toMatchObject({
      kind: 'run',
      options: {
        pressureSafetyS: 600,
        misbehave: [
          { machineId: 'PIVOT-02', kind: 'cut-water', afterS: 30 },
          { machineId: 'PIVOT-02', kind: 'restore-water', afterS: 90.5 },
          { machineId: 'PIVOT-03', kind: 'freeze', afterS: 0 },
          { machineId: 'SIM-0001', kind: 'drop-off', afterS: 0 },
          { machineId: 'x_1', kind: 'come-back', afterS: 2 },
          { machineId: 'PIVOT-01', kind: 'stop-unexpectedly', afterS: 12 },
          { machineId: 'PIVOT-03', kind: 'unfreeze', afterS: 45 },
        ],
      },
    });
    expect(parseCliArgs([...BROKER, '--demo', '--pressure-safety-s', '0.5'])).toMatchObject({
      options: { pressureSafetyS: 0.5, misbehave: [] },
    });
  });

  it('reads the demo with a seed, a time scale, an ID prefix and a clock set wrong', () => {
    const command = parseCliArgs([
      ...BROKER,
      ...['--demo', '--seed', '7', '--time-scale', '2.5', '--id-prefix', 'lab-', '--credentials', 'fleet.json'],
      '--clock-offset-ms=-10000',
    ]);
    expect(command).toMatchObject({
      kind: 'run',
      options: {
        machines: null,
        seed: 7,
        timeScale: 2.5,
        idPrefix: 'lab-',
        clockOffsetMs: -10_000,
        credentialsFile: 'fleet.json',
      },
    });
    expect(parseCliArgs([...BROKER, '--demo', '--clock-offset-ms', '2500'])).toMatchObject({
      options: { clockOffsetMs: 2500 },
    });
    expect(parseCliArgs(['--help'])).toEqual({ kind: 'help' });
  });

  it.each([
    [['--machines', '3'], /--broker/],
    [['--broker', 'http://localhost', '--machines', '3'], /mqtt:\/\/localhost:1883/],
    [['--broker', 'nonsense', '--machines', '3'], /--broker must be a URL/],
    [BROKER, /--machines <n> or --demo/],
    [[...BROKER, '--machines', '3', '--demo'], /not both/],
    [[...BROKER, '--machines', '0'], /--machines must be a whole number from 1 to 10000/],
    [[...BROKER, '--machines', '2.5'], /--machines must be a whole number/],
    [[...BROKER, '--machines', '3', '--seed=-1'], /--seed must be a whole number/],
    [[...BROKER, '--machines', '3', '--time-scale', '0'], /--time-scale must be a number above 0/],
    [[...BROKER, '--machines', '3', '--time-scale', 'fast'], /--time-scale/],
    [[...BROKER, '--machines', '3', '--id-prefix', 'a/b'], /--id-prefix/],
    [[...BROKER, '--machines', '3', '--clock-offset-ms', '-500'], /--clock-offset-ms=-XYZ/],
    [[...BROKER, '--machines', '3', '--clock-offset-ms=1.5'], /--clock-offset-ms must be a whole number/],
    [[...BROKER, '--machines', '3', '--clock-offset-ms=90000000'], /from -86400000 to 86400000/],
    [[...BROKER, '--machines', '3', '--colour', 'red'], /colour/],
    [[...BROKER, '--demo', '--misbehave', 'PIVOT-02'], /--misbehave must be <machine>:<kind>\[@<seconds>\]/],
    [[...BROKER, '--demo', '--misbehave', 'PIVOT-02:freeze:now'], /--misbehave must be/],
    [[...BROKER, '--demo', '--misbehave', 'PIVOT-02:melt@3'], /no misbehaviour "melt"; the kinds are cut-water, /],
    [[...BROKER, '--demo', '--misbehave', 'PIVOT-02:Freeze'], /no misbehaviour "Freeze"/],
    [[...BROKER, '--demo', '--misbehave', 'PIVOT-02:@3'], /no misbehaviour ""/],
    [[...BROKER, '--demo', '--misbehave', ':freeze@3'], /"" is not a machine ID/],
    [[...BROKER, '--demo', '--misbehave', 'PIVOT 02:freeze@3'], /"PIVOT 02" is not a machine ID/],
    [
      [...BROKER, '--demo', '--misbehave', 'PIVOT-02:freeze@soon'],
      /seconds after @ must be a number from 0 to 604800, not "soon"/,
    ],
    [[...BROKER, '--demo', '--misbehave', 'PIVOT-02:freeze@-5'], /seconds after @ must be a number/],
    [[...BROKER, '--demo', '--misbehave', 'PIVOT-02:freeze@'], /seconds after @ must be a number/],
    [[...BROKER, '--demo', '--misbehave', 'PIVOT-02:freeze@1e9'], /seconds after @ must be a number/],
    [[...BROKER, '--demo', '--misbehave'], /--misbehave/],
    [[...BROKER, '--demo', '--pressure-safety-s=-1'], /--pressure-safety-s must be a number of seconds from 0 to 3600/],
    [[...BROKER, '--demo', '--pressure-safety-s', 'long'], /--pressure-safety-s must be a number/],
  ])('rejects %j with a clear message', (args, message) => {
    expect(() => parseCliArgs(args)).toThrow(CliError);
    expect(() => parseCliArgs(args)).toThrow(message);
  });
});
