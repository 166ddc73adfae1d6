import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { IdParamsSchema } from '../src/common';
import { endpoint, endpointPath, isEndpoint } from '../src/endpoint';
import { webhooksEndpoints } from '../src/endpoints';

describe('an endpoint declared once', () => {
  it('fills its path with its parameters, each encoded', () => {
    expect(endpointPath('/sprinkler/:id/program/:programId/send/', { id: 4, programId: 12 })).toBe(
      '/sprinkler/4/program/12/send/',
    );
    expect(endpointPath('/device/:machineId/', { machineId: 'PIVOT 01/a' })).toBe('/device/PIVOT%2001%2Fa/');
    expect(endpointPath('/logs/', undefined)).toBe('/logs/');
    expect(() => endpointPath('/device/:machineId/', {})).toThrow(':machineId');
  });

  it('is told apart from the groups that hold it', () => {
    expect(isEndpoint(webhooksEndpoints.admin.remove)).toBe(true);
    expect(isEndpoint(webhooksEndpoints.admin)).toBe(false);
  });

  it("is checked by the compiler: the path's names are the params schema's", () => {
    const declared = endpoint({
      method: 'GET',
      path: '/sprinkler/:id/',
      params: IdParamsSchema,
      answer: z.object({ id: z.number() }),
      errors: ['sprinkler_not_found'],
      tag: 'example',
      summary: 'An example',
    });
    expect(declared.path).toBe('/sprinkler/:id/');
    const refused = () => [
      // @ts-expect-error: a path with a parameter needs a params schema.
      endpoint({ method: 'GET', path: '/sprinkler/:id/', errors: [], tag: 'example', summary: 'An example' }),
      endpoint({
        method: 'GET',
        path: '/sprinkler/:sprinklerId/',
        // @ts-expect-error: the schema gives `id`, the path names `sprinklerId`.
        params: IdParamsSchema,
        errors: [],
        tag: 'example',
        summary: 'An example',
      }),
      // @ts-expect-error: an error code the contracts do not have.
      endpoint({ method: 'GET', path: '/logs/', errors: ['no_such_code'], tag: 'example', summary: 'An example' }),
    ];
    expect(refused).toBeTypeOf('function');
  });
});
