import { describe, expect, it } from 'vitest';
import { EARTH_RADIUS_M, METRES_PER_DEGREE } from '../src/geometry';

describe('the earth every part measures on', () => {
  it('is the mean-radius sphere, about 111.2 km to a degree of latitude', () => {
    expect(EARTH_RADIUS_M).toBe(6_371_008.8);
    expect(METRES_PER_DEGREE).toBeCloseTo(111_195.08, 2);
  });
});
