import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderInApp } from '@/test-utils';
import { MAX_DROPS, MAX_DROP_SIZE, MIN_DROPS, MIN_DROP_SIZE, RainLoader, rainDrops } from './global-loader';

describe('the rain loader', () => {
  it('has 6 to 11 drops of 7 to 30 px', () => {
    expect(rainDrops(() => 0)).toHaveLength(MIN_DROPS);
    expect(rainDrops(() => 0.999)).toHaveLength(MAX_DROPS);
    for (let seed = 0; seed < 50; seed += 1) {
      for (const drop of rainDrops(Math.random)) {
        expect(drop.size).toBeGreaterThanOrEqual(MIN_DROP_SIZE);
        expect(drop.size).toBeLessThanOrEqual(MAX_DROP_SIZE);
      }
    }
    expect([MIN_DROPS, MAX_DROPS, MIN_DROP_SIZE, MAX_DROP_SIZE]).toEqual([6, 11, 7, 30]);
  });

  it('says it is loading', async () => {
    await renderInApp(<RainLoader />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading…');
  });
});
