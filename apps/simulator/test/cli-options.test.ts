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
        verbose: false,
      },
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
  ])('rejects %j with a clear message', (args, message) => {
    expect(() => parseCliArgs(args)).toThrow(CliError);
    expect(() => parseCliArgs(args)).toThrow(message);
  });
});
