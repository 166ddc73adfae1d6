import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  DottedDateSchema,
  IdParamsSchema,
  IdSchema,
  IdTextSchema,
  IsoDateSchema,
  LanguageSchema,
  NUMERIC_STRING_PATTERN,
  NumericStringSchema,
  PagingQuerySchema,
  SortOrderSchema,
  listResponseOf,
  parseDottedDate,
} from '../src/common';
import { expectRejected, expectUnknownKeyRejected, messagesOf } from './support';

describe('IdSchema', () => {
  it.each([1, 42, 1234567, 2147483647])('accepts %j', (input) => {
    expect(IdSchema.parse(input)).toBe(input);
  });

  it.each([0, -1, 1.5, 2147483648, '7', true, '0', 'abc', '', null, undefined])(
    'rejects %j, since answers are parsed strictly',
    (input) => {
      expectRejected(IdSchema, input);
    },
  );
});

describe('IdTextSchema', () => {
  it.each([
    ['7', 7],
    ['1234567', 1234567],
    ['2147483647', 2147483647],
  ])('turns %j into id %d', (input, expected) => {
    expect(IdTextSchema.parse(input)).toBe(expected);
  });

  it.each(['0', '-3', '2.5', '1e3', '0x10', '007', ' 7', 'abc', '', 7, '2147483648', '99999999999'])(
    'rejects %j',
    (input) => {
      expectRejected(IdTextSchema, input);
    },
  );
});

describe('IdParamsSchema', () => {
  it('coerces the path parameter to a number', () => {
    expect(IdParamsSchema.parse({ id: '12' })).toEqual({ id: 12 });
  });

  it('rejects a missing id and unknown keys', () => {
    expectRejected(IdParamsSchema, {});
    expectUnknownKeyRejected(IdParamsSchema, { id: '12' });
  });
});

describe('LanguageSchema and SortOrderSchema', () => {
  it.each(['pl', 'en'])('accepts the language %s', (language) => {
    expect(LanguageSchema.parse(language)).toBe(language);
  });

  it.each(['de', 'PL', 'en-US', ''])('rejects the language %j', (language) => {
    expectRejected(LanguageSchema, language);
  });

  it('knows exactly asc and desc', () => {
    expect(SortOrderSchema.options).toEqual(['asc', 'desc']);
    expectRejected(SortOrderSchema, 'ASC');
  });
});

describe('NumericStringSchema', () => {
  it.each([
    ['123.45', 123.45],
    ['-7', -7],
    ['0', 0],
    ['52.2297', 52.2297],
    ['-0.5', -0.5],
    ['007', 7],
  ])('decodes %j to %d', (text, value) => {
    expect(NumericStringSchema.parse(text)).toBe(value);
    expect(z.decode(NumericStringSchema, text)).toBe(value);
  });

  it.each([
    [123.45, '123.45'],
    [-7, '-7'],
    [0, '0'],
    [21.0122, '21.0122'],
  ])('encodes %d as %j', (value, text) => {
    expect(z.encode(NumericStringSchema, value)).toBe(text);
  });

  it.each([
    [1e-7, '0.0000001'],
    [-1.234e-7, '-0.0000001234'],
    [1e21, '1000000000000000000000'],
  ])('encodes %d without exponent notation, as %j', (value, text) => {
    const encoded = z.encode(NumericStringSchema, value);
    expect(encoded).toBe(text);
    expect(z.decode(NumericStringSchema, encoded)).toBe(value);
  });

  it.each(['12,5', '1e3', '', 'abc', ' 12', '12 ', '+5', '.5', '5.', '1.2.3', '0x10', 'NaN', 'Infinity', '--1'])(
    'rejects the malformed numeric string %j',
    (text) => {
      expect(NUMERIC_STRING_PATTERN.test(text)).toBe(false);
      expect(messagesOf(NumericStringSchema, text)).toEqual(['Expected a number such as 123.45']);
    },
  );

  it.each([12.5, null, undefined])('rejects the non-string %j on decode', (input) => {
    expectRejected(NumericStringSchema, input);
  });

  it('refuses to encode something that is not a finite number', () => {
    expect(() => z.encode(NumericStringSchema, Number.NaN)).toThrow();
    expect(() => z.encode(NumericStringSchema, '12' as unknown as number)).toThrow();
  });
});

describe('PagingQuerySchema', () => {
  it('defaults to the first page of 25 rows', () => {
    expect(PagingQuerySchema.parse({})).toEqual({ page: 1, pageSize: 25 });
  });

  it('coerces query strings to numbers', () => {
    expect(PagingQuerySchema.parse({ page: '3', pageSize: '50' })).toEqual({ page: 3, pageSize: 50 });
  });

  it.each([[{ page: 1, pageSize: 1 }], [{ page: 1000, pageSize: 100 }], [{ page: '2', pageSize: '100' }]])(
    'accepts the bounds %j',
    (query) => {
      expect(PagingQuerySchema.safeParse(query).success).toBe(true);
    },
  );

  it.each([
    ['page below 1', { page: 0 }],
    ['negative page', { page: '-1' }],
    ['fractional page', { page: '1.5' }],
    ['non-numeric page', { page: 'first' }],
    ['empty page', { page: '' }],
    ['pageSize above 100', { pageSize: 101 }],
    ['pageSize above 100 as text', { pageSize: '1000' }],
    ['pageSize below 1', { pageSize: 0 }],
  ])('rejects a %s', (_label, query) => {
    expectRejected(PagingQuerySchema, query);
  });

  it('is strict', () => {
    expectUnknownKeyRejected(PagingQuerySchema, { page: 1 });
  });
});

describe('listResponseOf', () => {
  const ListSchema = listResponseOf(z.strictObject({ id: z.number() }));

  it('accepts a count and the rows of the page', () => {
    const list = { count: 12, data: [{ id: 1 }, { id: 2 }] };
    expect(ListSchema.parse(list)).toEqual(list);
    expect(ListSchema.parse({ count: 0, data: [] })).toEqual({ count: 0, data: [] });
  });

  it.each([
    ['a negative count', { count: -1, data: [] }],
    ['a fractional count', { count: 1.5, data: [] }],
    ['a count as text', { count: '2', data: [] }],
    ['missing data', { count: 0 }],
    ['a row of the wrong shape', { count: 1, data: [{ id: 'one' }] }],
    ['a row with an unknown key', { count: 1, data: [{ id: 1, extra: true }] }],
  ])('rejects %s', (_label, list) => {
    expectRejected(ListSchema, list);
  });

  it('is strict', () => {
    expectUnknownKeyRejected(ListSchema, { count: 0, data: [] });
  });
});

describe('IsoDateSchema', () => {
  it.each(['2026-02-28', '2024-02-29', '2026-12-31'])('accepts %s', (date) => {
    expect(IsoDateSchema.parse(date)).toBe(date);
  });

  it.each(['2026-02-30', '2026-13-01', '28.02.2026', '2026-2-28', '2026-02-28T00:00:00Z', ''])('rejects %j', (date) => {
    expectRejected(IsoDateSchema, date);
  });
});

describe('parseDottedDate', () => {
  it('gives UTC midnight of the day', () => {
    expect(parseDottedDate('05.03.2026')?.toISOString()).toBe('2026-03-05T00:00:00.000Z');
    expect(parseDottedDate('29.02.2024')?.toISOString()).toBe('2024-02-29T00:00:00.000Z');
  });

  it.each(['31.02.2026', '29.02.2026', '31.04.2026', '00.01.2026', '01.00.2026', '01.13.2026', '32.01.2026'])(
    'gives null for %s, which is not a real day',
    (text) => {
      expect(parseDottedDate(text)).toBeNull();
    },
  );

  it.each(['2026-03-05', '5.3.2026', '05.03.26', '05/03/2026', ''])('gives null for the malformed %j', (text) => {
    expect(parseDottedDate(text)).toBeNull();
  });
});

describe('DottedDateSchema', () => {
  it.each(['01.01.2026', '29.02.2024', '31.12.2026'])('accepts %s', (text) => {
    expect(DottedDateSchema.parse(text)).toBe(text);
  });

  it.each(['31.02.2026', '29.02.2026', '31.06.2026'])('rejects %s as not a calendar date', (text) => {
    expect(messagesOf(DottedDateSchema, text)).toEqual(['Not a calendar date']);
  });

  it.each(['2026-02-01', '1.2.2026', '01.02.2026 ', ''])('rejects %j as not dd.mm.yyyy', (text) => {
    expect(messagesOf(DottedDateSchema, text)).toContain('Expected a date as dd.mm.yyyy');
  });
});
