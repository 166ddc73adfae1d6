import { type MachineListEvent, type SprinklerListItem, SprinklerPageSchema } from '@pivot/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { queryClient } from '@/lib/query-client';
import { session } from '@/lib/session';
import { buildSprinklerListItem, buildUser } from '@/test-factories';
import { FakeEventStreams } from '@/test-event-streams';
import { renderInApp } from '@/test-utils';
import { SprinklersTable } from './sprinklers-table';

const NOW = Date.now();

let events: FakeEventStreams;
let listAnswer: SprinklerListItem[];
let listRequests: number;
/** The queries the table asked the server's page with. */
let pageQueries: URLSearchParams[];
let nextIrrigationAnswer: { id: number; nextIrrigation: string | null }[];
/** The farm of each machine listed (none when not said). */
let machineFarms: Map<number, number>;

const sendListEvent = (event: MachineListEvent) => events.sendEvent(event.type, event);

const northField = () =>
  buildSprinklerListItem({
    id: 7,
    name: 'North field',
    internalId: 'PIVOT-07',
    status: 'front',
    angle: 10,
    distance: 400,
    speed: 50,
    pressure: 2.5,
    flow: 80,
    online: true,
    reportedAt: NOW,
  });

beforeEach(() => {
  events = new FakeEventStreams();
  listAnswer = [northField()];
  listRequests = 0;
  pageQueries = [];
  nextIrrigationAnswer = [];
  machineFarms = new Map();
  session.signIn(buildUser(), 'access-1');
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const { pathname, searchParams } = new URL(url, 'http://localhost');
    if (pathname === '/api/sprinkler/events') return events.open(init.signal);
    if (pathname === '/api/sprinkler/next-irrigation/') return Response.json(nextIrrigationAnswer);
    if (pathname === '/api/sprinkler/page/') {
      listRequests += 1;
      pageQueries.push(searchParams);
      const [page, pageSize] = [Number(searchParams.get('page')), Number(searchParams.get('pageSize'))];
      const data = listAnswer
        .slice((page - 1) * pageSize, page * pageSize)
        .map((machine) => ({ ...machine, farmId: machineFarms.get(machine.id) ?? null }));
      return Response.json(z.encode(SprinklerPageSchema, { count: listAnswer.length, data, page, pageSize }));
    }
    return Response.json({ code: 'not_found', message: 'no such call' }, { status: 404 });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

async function renderTable(farmNames?: ReadonlyMap<number, string>) {
  await renderInApp(
    <QueryClientProvider client={queryClient}>
      <SprinklersTable farmNames={farmNames} />
    </QueryClientProvider>,
    { path: '/en/sprinklers' },
  );
  await waitFor(() => expect(events.streams).toHaveLength(1));
  return screen.findByRole('row', { name: /North field/ });
}

describe('the machines table', () => {
  it("names each machine's farm for a person with several, and sorts by it", async () => {
    machineFarms = new Map([
      [7, 1],
      [8, 2],
    ]);
    listAnswer = [northField(), buildSprinklerListItem({ id: 8, name: 'South field', internalId: 'PIVOT-08' })];
    await renderTable(
      new Map([
        [1, 'Home farm'],
        [2, "Neighbour's farm"],
      ]),
    );
    expect(screen.getByRole('row', { name: /South field/ })).toHaveTextContent("Neighbour's farm");
    expect(screen.getByRole('row', { name: /North field/ })).toHaveTextContent('Home farm');
    expect(pageQueries.at(-1)!.has('farm')).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: /^Farm/ }));
    await waitFor(() => expect(pageQueries.at(-1)!.get('sort')).toBe('farm'));
  });

  it('shows only the farm the person switched to, without naming it on every row', async () => {
    const user = buildUser({ id: 41 });
    session.signIn(user, 'access-41');
    localStorage.setItem(`pivot-farm:${user.id}`, '2');
    machineFarms = new Map([[7, 2]]);
    await renderTable(
      new Map([
        [1, 'Home farm'],
        [2, "Neighbour's farm"],
      ]),
    );
    expect(pageQueries.at(-1)!.get('farm')).toBe('2');
    expect(screen.queryByRole('button', { name: /^Farm/ })).toBeNull();
    expect(screen.getByRole('row', { name: /North field/ })).not.toHaveTextContent("Neighbour's farm");
    localStorage.removeItem(`pivot-farm:${user.id}`);
  });

  it('takes live values from the event stream instead of asking for the list again', async () => {
    const row = await renderTable();
    expect(row).toHaveTextContent('2.5');
    act(() =>
      sendListEvent({
        type: 'telemetry',
        sprinklerId: 7,
        timestamp: NOW + 5000,
        status: 'back',
        angle: 12,
        distance: 400,
        speed: 50,
        pressure: 3.75,
        flow: 80,
        alarm: null,
        currentPosition: {
          type: 'Feature',
          geometry: {
            type: 'LineString',
            coordinates: [
              [17, 52],
              [17.001, 52.001],
            ],
          },
          properties: {},
        },
      }),
    );
    await waitFor(() => expect(screen.getByRole('row', { name: /North field/ })).toHaveTextContent('3.75'));
    act(() =>
      sendListEvent({
        type: 'program',
        sprinklerId: 7,
        currentProgramData: { type: 'FeatureCollection', name: 'Maize July', features: [] },
        currentProgramTimestamp: NOW,
      }),
    );
    await waitFor(() => expect(screen.getByRole('row', { name: /North field/ })).toHaveTextContent('Maize July'));
    expect(listRequests).toBe(1);
  });

  it('reads the list again when the stream says it changed', async () => {
    await renderTable();
    listAnswer = [northField(), buildSprinklerListItem({ id: 8, name: 'South field', internalId: 'PIVOT-08' })];
    act(() => sendListEvent({ type: 'machines' }));
    const table = screen.getByRole('table');
    await waitFor(() => expect(within(table).getByRole('row', { name: /South field/ })).toBeInTheDocument());
    expect(listRequests).toBe(2);
  });

  it('asks the server for the page sorted, searched and filtered, and shows its count', async () => {
    await renderTable();
    expect(Object.fromEntries(pageQueries.at(-1)!)).toEqual({ page: '1', pageSize: '10', sort: 'name', order: 'asc' });
    listAnswer = [buildSprinklerListItem({ id: 9, name: 'East field', internalId: 'PIVOT-09', online: false })];
    await userEvent.selectOptions(screen.getByLabelText('State'), 'Offline');
    await waitFor(() => expect(screen.getByRole('row', { name: /East field/ })).toBeInTheDocument());
    expect(pageQueries.at(-1)!.get('status')).toBe('offline');
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search' }), 'was moving');
    await waitFor(() => expect(pageQueries.at(-1)!.get('search')).toBe('was moving'));
    expect(pageQueries.at(-1)!.get('status')).toBe('offline');
    await userEvent.click(screen.getByRole('button', { name: /Distance/ }));
    await waitFor(() => expect(pageQueries.at(-1)!.get('sort')).toBe('distance'));
    expect(screen.getByText(/1\D+1 of 1/)).toBeInTheDocument();
  });

  it("shows each machine's next irrigation: a date, today, or a dash without a season", async () => {
    const day = (offset: number) => {
      const date = new Date(NOW + offset * 86_400_000);
      return (
        [date.getDate(), date.getMonth() + 1].map((part) => String(part).padStart(2, '0')).join('.') +
        `.${date.getFullYear()}`
      );
    };
    listAnswer = [
      northField(),
      buildSprinklerListItem({ id: 8, name: 'South field', internalId: 'PIVOT-08' }),
      buildSprinklerListItem({ id: 9, name: 'East field', internalId: 'PIVOT-09' }),
      buildSprinklerListItem({ id: 10, name: 'West field', internalId: 'PIVOT-10' }),
    ];
    nextIrrigationAnswer = [
      { id: 7, nextIrrigation: day(3) },
      { id: 8, nextIrrigation: day(0) },
      { id: 10, nextIrrigation: null },
    ];
    await renderTable();
    const table = screen.getByRole('table');
    expect(within(table).getByRole('columnheader', { name: /Next irrigation/ })).toBeInTheDocument();
    // Beside the state, where a laptop's width still shows it.
    const headers = within(table).getAllByRole('columnheader');
    const column = headers.findIndex((header) => /Next irrigation/.test(header.textContent ?? ''));
    expect(headers[column - 1]).toHaveTextContent(/Status/);
    const cellOf = async (name: RegExp) =>
      within(within(table).getByRole('row', { name })).getAllByRole('cell')[column]!;
    // The API's dd.mm.yyyy in the app's date style (en: dd/mm/yyyy).
    await waitFor(async () => expect(await cellOf(/North field/)).toHaveTextContent(day(3).replaceAll('.', '/')));
    expect(await cellOf(/South field/)).toHaveTextContent(/irrigation\s*today$/);
    expect(await cellOf(/East field/)).toHaveTextContent(/irrigation\s*—$/);
    expect(await cellOf(/West field/)).toHaveTextContent(/irrigation\s*—$/);
  });

  it('shows no dash for the next irrigation before its answer has come, and "unknown" when it fails', async () => {
    let answerNextIrrigation!: (response: Response) => void;
    const calls = fetch;
    vi.stubGlobal('fetch', (url: string, init?: RequestInit) =>
      new URL(url, 'http://localhost').pathname === '/api/sprinkler/next-irrigation/'
        ? new Promise<Response>((resolve) => (answerNextIrrigation = resolve))
        : calls(url, init),
    );
    await renderTable();
    const table = screen.getByRole('table');
    const headers = within(table).getAllByRole('columnheader');
    const column = headers.findIndex((header) => /Next irrigation/.test(header.textContent ?? ''));
    const cell = () => within(within(table).getByRole('row', { name: /North field/ })).getAllByRole('cell')[column]!;
    await waitFor(() => expect(answerNextIrrigation).toBeDefined());
    expect(cell()).toHaveTextContent(/^Next irrigation$/);
    // A refusal the API client does not retry (a 500 would be, for seconds).
    answerNextIrrigation(Response.json({ code: 'not_found', message: 'no such call' }, { status: 404 }));
    await waitFor(() => expect(cell()).toHaveTextContent(/irrigation\s*unknown$/));
  });
});
