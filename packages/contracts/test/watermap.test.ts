import { describe, expect, it } from 'vitest';
import { WatermapQuerySchema, WatermapResponseSchema } from '../src/watermap';
import { expectRejected, expectUnknownKeyRejected, issuesOf } from './support';

const range = (start: string, stop: string) => ({ start, stop });

describe('WatermapResponseSchema', () => {
  it('accepts latitude, longitude and mm triples with the cell size', () => {
    const map = {
      data: [
        [52.41, 16.93, 12.5],
        [52.4101, 16.9302, 0],
      ],
      step: 10,
    };
    expect(WatermapResponseSchema.parse(map)).toEqual(map);
    expect(WatermapResponseSchema.parse({ data: [], step: 2.5 })).toEqual({ data: [], step: 2.5 });
  });

  it.each([
    ['a pair instead of a triple', { data: [[52.41, 16.93]], step: 10 }],
    ['a quadruple', { data: [[52.41, 16.93, 1, 2]], step: 10 }],
    ['a value as text', { data: [[52.41, 16.93, '12.5']], step: 10 }],
    ['a step of zero', { data: [], step: 0 }],
    ['a negative step', { data: [], step: -10 }],
    ['a missing step', { data: [] }],
  ])('rejects %s', (_label, map) => {
    expectRejected(WatermapResponseSchema, map);
  });

  it('is strict', () => {
    expectUnknownKeyRejected(WatermapResponseSchema, { data: [], step: 10 });
  });
});

describe('WatermapQuerySchema', () => {
  it.each([
    range('01.04.2026', '07.04.2026'),
    range('15.04.2026', '15.04.2026'),
    range('28.02.2024', '29.02.2024'),
    range('31.12.2025', '01.01.2026'),
  ])('accepts the range %j', (query) => {
    expect(WatermapQuerySchema.parse(query)).toEqual(query);
  });

  it.each([
    ['a day before', range('08.04.2026', '07.04.2026')],
    ['a month before', range('01.05.2026', '30.04.2026')],
    ['a year before', range('01.04.2027', '01.05.2026')],
  ])('rejects a stop %s the start', (_label, query) => {
    expect(issuesOf(WatermapQuerySchema, query)).toEqual([
      { path: 'stop', code: 'custom', message: 'The range must not end before it starts' },
    ]);
  });

  it.each([
    ['start', range('31.02.2026', '07.03.2026')],
    ['stop', range('01.02.2026', '31.02.2026')],
    ['stop', range('01.02.2026', '29.02.2026')],
  ])('reports a %s that is not a real day, and only that', (field, query) => {
    expect(issuesOf(WatermapQuerySchema, query)).toEqual([
      { path: field, code: 'custom', message: 'Not a calendar date' },
    ]);
  });

  it.each([
    ['ISO dates', range('2026-04-01', '2026-04-07')],
    ['a missing stop', { start: '01.04.2026' }],
    ['numbers', { start: 1, stop: 2 }],
    ['the picker’s joined range', { start: '01.04.2026 - 07.04.2026', stop: '07.04.2026' }],
  ])('rejects %s without throwing', (_label, query) => {
    expect(() => WatermapQuerySchema.safeParse(query)).not.toThrow();
    expectRejected(WatermapQuerySchema, query);
  });

  it('is strict', () => {
    expectUnknownKeyRejected(WatermapQuerySchema, range('01.04.2026', '07.04.2026'));
  });
});
