import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderInApp } from '@/test-utils';
import { type Column, DataTable, type TableQuery } from './data-table';

type Field = { id: number; name: string };
const FIELDS: Field[] = Array.from({ length: 23 }, (_, index) => ({ id: index + 1, name: `Field ${index + 1}` }));
const columns: Column<Field>[] = [
  { id: 'id', header: 'ID', cell: (row) => row.id, sortable: true },
  { id: 'name', header: 'Name', cell: (row) => row.name },
];

/** A server in miniature: sorts, searches and pages the fields. */
function fakeServer() {
  return vi.fn(async (query: TableQuery) => {
    const found = FIELDS.filter((field) => !query.search || field.name.includes(query.search));
    const sorted = query.order === 'desc' ? [...found].reverse() : found;
    const start = (query.page - 1) * query.pageSize;
    return { count: found.length, data: sorted.slice(start, start + query.pageSize) };
  });
}

async function renderTable(queryFn: (query: TableQuery) => Promise<{ count: number; data: Field[] } | false>) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return renderInApp(
    <QueryClientProvider client={client}>
      <DataTable
        label="Fields"
        columns={columns}
        queryKey={['fields']}
        queryFn={queryFn}
        rowKey={(row) => row.id}
        searchable
      />
    </QueryClientProvider>,
  );
}

const rowNames = () =>
  within(screen.getByRole('table', { name: 'Fields' }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[1]?.lastElementChild?.textContent);

describe('the data table', () => {
  it('says it is loading, then shows the first page and "start–stop of total"', async () => {
    await renderTable(fakeServer());
    expect(screen.getByText('Loading…')).toBeInTheDocument();
    expect(await screen.findByText('1–10 of 23')).toBeInTheDocument();
    expect(rowNames()).toHaveLength(10);
  });

  it('pages on the server and changes the page size', async () => {
    const server = fakeServer();
    await renderTable(server);
    await screen.findByText('1–10 of 23');
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('11–20 of 23')).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText('Rows per page'), '25');
    expect(await screen.findByText('1–23 of 23')).toBeInTheDocument();
    expect(server).toHaveBeenLastCalledWith({ page: 1, pageSize: 25 });
  });

  it('sorts ascending, then descending', async () => {
    const server = fakeServer();
    await renderTable(server);
    await screen.findByText('1–10 of 23');
    // A phone's sort control names the server's own order until a column is chosen.
    expect(screen.getByLabelText('Sort by')).toHaveDisplayValue('Default order');
    expect(screen.getByLabelText('Sort order')).toBeDisabled();
    const header = screen.getByRole('columnheader', { name: /ID/ });
    await userEvent.click(within(header).getByRole('button'));
    await waitFor(() => expect(header).toHaveAttribute('aria-sort', 'ascending'));
    await userEvent.click(within(header).getByRole('button'));
    await waitFor(() => expect(rowNames()[0]).toBe('Field 23'));
    expect(header).toHaveAttribute('aria-sort', 'descending');
    expect(server).toHaveBeenLastCalledWith({ page: 1, pageSize: 10, sort: 'id', order: 'desc' });
  });

  it('searches on the server once the user pauses', async () => {
    const server = fakeServer();
    await renderTable(server);
    await screen.findByText('1–10 of 23');
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search' }), 'Field 2');
    await waitFor(() => expect(screen.getByText('1–5 of 5')).toBeInTheDocument());
    expect(server).toHaveBeenLastCalledWith({ page: 1, pageSize: 10, search: 'Field 2' });
  });

  it('says when there is nothing to show', async () => {
    await renderTable(async () => ({ count: 0, data: [] }));
    expect(await screen.findByText('Nothing to show')).toBeInTheDocument();
    expect(screen.getByText('0–0 of 0')).toBeInTheDocument();
  });

  it('says when the data could not be loaded', async () => {
    await renderTable(async () => false);
    expect(await screen.findByText('The data could not be loaded')).toBeInTheDocument();
  });
});
