import { describe, expect, it } from 'vitest';
import { CONSOLE_HELP, ConsoleError, parseConsoleLine } from '../src/fleet-console';
import { MACHINE_MISBEHAVIOURS } from '../src/machine-misbehaviour';

describe('commands typed while the simulator runs', () => {
  it.each(MACHINE_MISBEHAVIOURS)('reads "%s <machine>"', (kind) => {
    expect(parseConsoleLine(`${kind} PIVOT-02`)).toEqual({
      kind: 'misbehave',
      misbehaviour: kind,
      machineId: 'PIVOT-02',
    });
  });

  it('forgives case in the command, extra blanks and a line ending, and keeps the ID as typed', () => {
    expect(parseConsoleLine('  Cut-Water   sim-0003 \r')).toEqual({
      kind: 'misbehave',
      misbehaviour: 'cut-water',
      machineId: 'sim-0003',
    });
  });

  it('reads help, status with or without a machine, and a blank line', () => {
    expect(parseConsoleLine('help')).toEqual({ kind: 'help' });
    expect(parseConsoleLine('?')).toEqual({ kind: 'help' });
    expect(parseConsoleLine('status')).toEqual({ kind: 'status', machineId: null });
    expect(parseConsoleLine('STATUS PIVOT-01')).toEqual({ kind: 'status', machineId: 'PIVOT-01' });
    expect(parseConsoleLine('')).toEqual({ kind: 'nothing' });
    expect(parseConsoleLine('   \t ')).toEqual({ kind: 'nothing' });
  });

  it.each([
    ['melt PIVOT-02', /Unknown command "melt"; type help/],
    ['PIVOT-02 freeze', /Unknown command "PIVOT-02"/],
    ['freeze', /Which machine\? Type freeze <machine ID>/],
    ['drop-off PIVOT-01 PIVOT-02', /drop-off takes one machine ID/],
    ['come-back PIVOT/02', /"PIVOT\/02" is not a machine ID/],
    ['status PIVOT-01 PIVOT-02', /status takes at most one machine ID/],
    [`${'x'.repeat(500)} PIVOT-01`, /Unknown command "x{40}…"/],
  ])('answers %j with a clear message', (line, message) => {
    expect(() => parseConsoleLine(line)).toThrow(ConsoleError);
    expect(() => parseConsoleLine(line)).toThrow(message);
  });

  it('lists every misbehaviour, status and help in its help', () => {
    for (const kind of MACHINE_MISBEHAVIOURS) expect(CONSOLE_HELP).toContain(`${kind} <machine>`);
    expect(CONSOLE_HELP).toContain('status [<machine>]');
    expect(CONSOLE_HELP).toContain('help');
  });
});
