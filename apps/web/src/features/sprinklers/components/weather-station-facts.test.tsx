import { type WeatherStation, WeatherStationSchema } from '@pivot/contracts';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderInApp } from '@/test-utils';
import { WeatherStationFacts } from './weather-station-facts';

const station = (changes: Partial<WeatherStation>): WeatherStation =>
  WeatherStationSchema.parse({
    id: 'WS-1',
    lat: 52.2,
    lng: 17.2,
    temperature: 18,
    humidity: 60,
    rainfall: 0,
    ...changes,
  });

const etp = () => screen.getByText(/^ETP/).nextElementSibling;

describe("a weather station's readings", () => {
  it('gives the ETP of the days there are, and how many, while the station has less than a week', async () => {
    const view = await renderInApp(<WeatherStationFacts station={station({ etp_7d: 12.3, etp_days: 3 })} />, {
      locale: 'pl',
    });
    expect(etp()).toHaveTextContent('12,3 mm (3 dni)');
    view.unmount();
    await renderInApp(<WeatherStationFacts station={station({ etp_7d: 4.1, etp_days: 1 })} />, { locale: 'en' });
    expect(etp()).toHaveTextContent('4.1 mm (1 day)');
  });

  it('gives a whole week without the count, and a dash with no ETP yet', async () => {
    const view = await renderInApp(<WeatherStationFacts station={station({ etp_7d: 25, etp_days: 7 })} />);
    expect(etp()).toHaveTextContent(/^25 mm$/);
    view.unmount();
    await renderInApp(<WeatherStationFacts station={station({})} />);
    expect(etp()).toHaveTextContent(/^—$/);
  });
});
