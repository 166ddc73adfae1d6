import type { CurrentProgramData, Sector } from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import { buildWaterBalanceArea } from '@/test-factories';
import { freeProgramName, hasAdvisedDoses, programFromAdvice } from './program-from-advice';

const sector = (name: string, rate: number): Sector => ({
  type: 'Feature',
  geometry: {
    type: 'Polygon',
    coordinates: [
      [
        [17, 52],
        [17.01, 52],
        [17.01, 52.01],
        [17, 52],
      ],
    ],
  },
  properties: { name, rate },
});

const advice = (name: string, grossDose: number | null) =>
  buildWaterBalanceArea({
    name,
    nextIrrigation: grossDose === null ? null : '30.11.2026',
    netDose: grossDose === null ? null : grossDose * 0.85,
    grossDose,
  });

const current: CurrentProgramData = {
  type: 'FeatureCollection',
  name: 'Lato',
  features: [sector('Północ', 12), sector('Wschód', 18), sector('Droga', -1), sector('Sad', 9)],
};

describe('the program from advice', () => {
  it('gives each advised sector its gross dose to a tenth of a mm, and keeps the rest as they are', () => {
    const body = programFromAdvice(
      current,
      [advice('Północ', 27.06), advice('Wschód', null), advice('Droga', 20)],
      'Porada 26.11.2026',
    );
    expect(body.name).toBe('Porada 26.11.2026');
    expect(body.programData.type).toBe('FeatureCollection');
    expect(body.programData.features.map((feature) => feature.properties)).toEqual([
      { name: 'Północ', rate: 27.1 },
      { name: 'Wschód', rate: 18 },
      { name: 'Droga', rate: -1 },
      { name: 'Sad', rate: 9 },
    ]);
    expect(body.programData.features[0]?.geometry).toEqual(current.features[0]?.geometry);
  });

  it('is offered only with a dose to give, under a name no program has', () => {
    expect(hasAdvisedDoses([advice('Północ', null)])).toBe(false);
    expect(hasAdvisedDoses([advice('Północ', null), advice('Wschód', 3)])).toBe(true);
    expect(freeProgramName('Porada 26.11.2026', ['Lato'])).toBe('Porada 26.11.2026');
    expect(freeProgramName('Porada 26.11.2026', ['Porada 26.11.2026', 'Porada 26.11.2026 (2)'])).toBe(
      'Porada 26.11.2026 (3)',
    );
  });
});
