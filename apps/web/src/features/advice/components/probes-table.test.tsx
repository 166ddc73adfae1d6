import type { WaterBalanceProbe } from '@pivot/contracts';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { dateTimeFormat } from '@/i18n/use-date-time-format';
import { renderInApp } from '@/test-utils';
import { ProbesTable } from './probes-table';

const READ_AT = Date.UTC(2026, 5, 7, 18);
const probes: WaterBalanceProbe[] = [
  {
    id: 'SOIL-1',
    zone: 'Kukurydza 2026',
    position: [17.2, 52.3],
    readAt: READ_AT,
    moisture: 15.5,
    probeDepletion: 28.28,
    modelDepletion: 14.04,
    offset: 14.24,
    used: true,
  },
  {
    id: 'SOIL-2',
    zone: 'Kukurydza 2026',
    position: [17.201, 52.3],
    readAt: READ_AT - 36 * 3_600_000,
    moisture: 24,
    probeDepletion: 2.83,
    modelDepletion: 12,
    offset: -9.17,
    used: false,
    reason: 'stale',
  },
];

describe('the probes beside the model', () => {
  it('shows each probe’s and the model’s depletion, the difference and the reading’s time', async () => {
    await renderInApp(<ProbesTable probes={probes} />);
    expect(screen.getByRole('table', { name: 'Soil probes' })).toBeVisible();
    expect(screen.getAllByRole('columnheader').map((header) => header.textContent)).toEqual([
      'Probe',
      'Model, mm',
      'Probe, mm',
      'Difference, mm',
    ]);
    const used = screen.getByRole('row', { name: /SOIL-1/ });
    expect(used).toHaveTextContent('Zone: Kukurydza 2026');
    expect(used).toHaveTextContent('14');
    expect(used).toHaveTextContent('28.3');
    expect(used).toHaveTextContent('+14.2');
    expect(used).toHaveTextContent(`Moisture 15.5 %, read ${dateTimeFormat('en').dateTime(READ_AT)}`);
    expect(used).toHaveTextContent('corrects the zone');
    expect(used).toHaveTextContent(dateTimeFormat('en').dateTime(READ_AT));
    const stale = screen.getByRole('row', { name: /SOIL-2/ });
    expect(stale).toHaveTextContent('-9.2');
    expect(stale).toHaveTextContent('reading older than 24 h: not used');
  });

  it('says when two probes of a zone disagree, which one the model follows and why', async () => {
    const disagreeing: WaterBalanceProbe[] = [
      { ...probes[0]!, id: 'SOIL-1', recorded: true },
      { ...probes[0]!, id: 'SOIL-3', probeDepletion: 61.3, offset: 47.26, used: false, reason: 'disagrees' },
    ];
    const disagreement = {
      zone: 'Kukurydza 2026',
      probes: ['SOIL-1', 'SOIL-3'],
      spread: 33.02,
      threshold: 18,
      follows: 'SOIL-1',
      reason: 'recorded' as const,
    };
    await renderInApp(<ProbesTable probes={disagreeing} disagreements={[disagreement]} />);
    expect(screen.getByRole('note')).toHaveTextContent(
      'SOIL-1, SOIL-3 in Kukurydza 2026 differ by 33 mm, more than 18 mm. The model follows SOIL-1: its reading was typed in by the farm.',
    );
    expect(screen.getByRole('row', { name: /SOIL-1/ })).toHaveTextContent('typed in');
    expect(screen.getByRole('row', { name: /SOIL-3/ })).toHaveTextContent(
      'disagrees with another probe of its zone: not used',
    );
    await renderInApp(
      <ProbesTable probes={disagreeing} disagreements={[{ ...disagreement, reason: 'closest_to_model' }]} />,
      { locale: 'pl' },
    );
    // The English table is still in the page: the Polish one is the second.
    expect(screen.getAllByRole('note')[1]).toHaveTextContent(
      'Model idzie za sondą SOIL-1, najbliższą wyliczeniu modelu',
    );
  });

  it('is reached by the keyboard, which scrolls the columns a narrow screen cuts off', async () => {
    await renderInApp(<ProbesTable probes={probes} />);
    await userEvent.tab();
    expect(screen.getByRole('region', { name: 'Soil probes' })).toHaveFocus();
  });

  it('speaks Polish, and shows nothing without probes', async () => {
    const { container } = await renderInApp(<ProbesTable probes={[]} />);
    expect(container).toBeEmptyDOMElement();
    await renderInApp(<ProbesTable probes={probes} />, { locale: 'pl' });
    const used = screen.getByRole('row', { name: /SOIL-1/ });
    expect(used).toHaveTextContent('+14,2');
    expect(used).toHaveTextContent('koryguje strefę');
    expect(used).toHaveTextContent(dateTimeFormat('pl').dateTime(READ_AT));
    expect(screen.getByRole('row', { name: /SOIL-2/ })).toHaveTextContent('odczyt starszy niż 24 h: nieużyty');
  });
});
