import { MAX_CORNERS_PER_MESSAGE, cornersIn } from '@pivot/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors';

/** Deeper than any GeoJSON a field needs (a polygon's rings are 5 levels); deeper input is refused. */
const MAX_INPUT_DEPTH = 32;

/**
 * What no request may carry, whatever its route: a NUL character in any text (PostgreSQL cannot
 * store one) and nesting deeper than MAX_INPUT_DEPTH (the schemas validate recursively). Walked
 * without recursion, so a hostile body cannot exhaust the stack here either.
 */
function hasForbiddenInput(value: unknown): boolean {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (pending.length > 0) {
    const { value: current, depth } = pending.pop()!;
    if (typeof current === 'string') {
      if (current.includes('\u0000')) return true;
    } else if (typeof current === 'object' && current !== null) {
      if (depth >= MAX_INPUT_DEPTH) return true;
      for (const [key, item] of Object.entries(current)) {
        if (key.includes('\u0000')) return true;
        pending.push({ value: item, depth: depth + 1 });
      }
    }
  }
  return false;
}

/**
 * Refuses such input with the ordinary 400 of a query error before any schema or database sees
 * it, and a body whose polygons have more corners in all than MAX_CORNERS_PER_MESSAGE with 413
 * `too_many_corners`: the schemas check every polygon as they parse, work this bounds.
 */
export const inputGuardPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('preValidation', async (request) => {
      // Counted first: it stops at the budget, where the walk below reads every value.
      if (cornersIn(request.body, MAX_CORNERS_PER_MESSAGE) > MAX_CORNERS_PER_MESSAGE) {
        throw new AppError('too_many_corners');
      }
      if (hasForbiddenInput(request.params) || hasForbiddenInput(request.query) || hasForbiddenInput(request.body)) {
        throw new AppError('validation_error');
      }
    });
  },
  { name: 'input-guard' },
);
