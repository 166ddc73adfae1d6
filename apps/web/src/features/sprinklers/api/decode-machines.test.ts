import { sprinklersEndpoints } from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import { type ZodType, z } from 'zod';
import { buildSprinklerDetail, buildSprinklerListItem } from '@/test-factories';
import { decodeMachine, decodeMachinePage } from './decode-machines';

/** An answer as the server sends it (encoded, as JSON), from its decoded form. */
const wire = (schema: ZodType, value: unknown): unknown => JSON.parse(JSON.stringify(z.encode(schema, value)));

const reported = {
  online: true,
  reportedAt: 1_780_000_000_000,
  status: 'front' as const,
  angle: 12.5,
  distance: 400,
  speed: 50,
  pressure: 2.1,
  flow: 80,
};

describe("the machines' answers decoded by hand", () => {
  it('are what their schemas give: lat and lng as numbers, the rest as it came', () => {
    const detail = wire(sprinklersEndpoints.detail.answer, buildSprinklerDetail(reported));
    expect(decodeMachine(detail)).toStrictEqual(sprinklersEndpoints.detail.answer.parse(detail));
    const page = wire(sprinklersEndpoints.page.answer, {
      count: 2,
      data: [
        { ...buildSprinklerListItem(), farmId: null },
        { ...buildSprinklerListItem({ id: 2, ...reported }), farmId: 3 },
      ],
      page: 1,
      pageSize: 25,
    });
    expect(decodeMachinePage(page)).toStrictEqual(sprinklersEndpoints.page.answer.parse(page));
  });

  it('leave an answer of another shape as it came, for its check to refuse', () => {
    for (const answer of [null, 'machine', [1, 2], { data: 'none' }]) {
      expect(decodeMachinePage(answer)).toBe(answer);
    }
    expect(decodeMachine(null)).toBeNull();
  });
});
