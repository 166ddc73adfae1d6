import type { WaterBalanceArea } from '@pivot/contracts';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildWaterBalance, buildWaterBalanceArea } from '@/test-factories';
import { renderInApp } from '@/test-utils';
import { SoilWaterLegend } from './soil-water-legend';

const zone = (name: string, taw: number, raw: number) =>
  buildWaterBalanceArea({ name, taw, raw, depletion: 10, depletionMin: 8, depletionMax: 12, nextIrrigation: null });

const balance = (zones: WaterBalanceArea[]) =>
  buildWaterBalance({ station: 'WS-1', zones, cells: [[52, 17, 10, 80, null]] });

describe('the soil water legend', () => {
  it('draws the RAW line where it lies on the TAW scale, and names the day', async () => {
    await renderInApp(<SoilWaterLegend balance={balance([zone('Maize', 80, 44)])} />);
    expect(screen.getByText(/RAW at 55 % of TAW/)).toBeInTheDocument();
    expect(screen.getByText(/end of 07\/06\/2026/)).toBeInTheDocument();
  });

  it("gives each zone its own RAW line where the zones' p differ", async () => {
    await renderInApp(<SoilWaterLegend balance={balance([zone('Maize', 80, 44), zone('Potatoes', 40, 14)])} />);
    expect(screen.getByText(/RAW of Maize at 55 %/)).toBeInTheDocument();
    expect(screen.getByText(/RAW of Potatoes at 35 %/)).toBeInTheDocument();
  });

  it('says what is missing without a balance', async () => {
    await renderInApp(<SoilWaterLegend balance={null} />);
    expect(screen.getByText(/set a crop season/)).toBeInTheDocument();
  });

  it('says the balance is being computed while it is read, not that there is none', async () => {
    await renderInApp(<SoilWaterLegend balance={undefined} />);
    expect(screen.getByRole('status')).toHaveTextContent('Computing the soil-water balance…');
    expect(screen.queryByText(/set a crop season/)).not.toBeInTheDocument();
  });
});
