import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { IconButton } from './icon-button';
import { TableBody, type TableColumn } from './table-body';
import { ToolbarSelect } from './toolbar-select';
import { useDebouncedValue } from './use-debounced-value';
import { ChevronLeftIcon, ChevronRightIcon, SearchIcon, SortAscIcon, SortDescIcon, SortIcon } from './other-icons';

export type SortOrder = 'asc' | 'desc';

export type Column<Row> = TableColumn<Row> & {
  /** Sortable columns send their id as `sort` to the query. */
  sortable?: boolean;
};

export type TableQuery = {
  page: number;
  pageSize: number;
  sort?: string;
  order?: SortOrder;
  search?: string;
  /** The filter's chosen option; none while it shows every row. */
  filter?: string;
};

/** A choice of which rows to show (a machine's state: moving, stopped, offline), beside the search. */
export type TableFilter = {
  /** Names the choice ("Status"). */
  label: string;
  /** What the choice of every row says ("All states"). */
  allLabel: string;
  options: readonly { value: string; label: string }[];
};

export type TablePage<Row> = { count: number; data: Row[] };

export type DataTableProps<Row> = {
  /** Names the table for screen readers. */
  label: string;
  columns: readonly Column<Row>[];
  /** Identifies the data; the table adds its paging, sorting and search to it. */
  queryKey: readonly unknown[];
  /** Fetches one page from the server; false when the call failed (it has shown its error). */
  queryFn: (query: TableQuery) => Promise<TablePage<Row> | false>;
  rowKey: (row: Row) => string | number;
  rowClassName?: (row: Row) => string;
  /** Shows the search box; the server searches. */
  searchable?: boolean;
  /** Names the search box when a page has more than one table ("Search controllers"); "Search" otherwise. */
  searchLabel?: string;
  initialSort?: { sort: string; order: SortOrder };
  pageSizes?: readonly number[];
  /** Shown when there are no rows at all; a search that finds none says so instead. */
  emptyMessage?: string;
  /** Asks the server again every so many ms, for values that change while the table is open. */
  refetchInterval?: number;
  /** Shows a choice of which rows to show; the server filters by the option's value. */
  filter?: TableFilter;
};

const DEFAULT_PAGE_SIZES = [10, 25, 50, 100] as const;
const SEARCH_DELAY_MS = 300;

/**
 * A table paged, sorted and searched on the server. On a phone each row becomes a card with
 * the column names beside the values, so nothing needs scrolling sideways.
 */
export function DataTable<Row>({
  label,
  columns,
  queryKey,
  queryFn,
  rowKey,
  rowClassName,
  searchable = false,
  searchLabel,
  initialSort,
  pageSizes = DEFAULT_PAGE_SIZES,
  emptyMessage,
  refetchInterval,
  filter,
}: DataTableProps<Row>) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(pageSizes[0] ?? DEFAULT_PAGE_SIZES[0]);
  const [sort, setSort] = useState(initialSort);
  const [searchText, setSearchText] = useState('');
  const [filterValue, setFilterValue] = useState('');
  // Typing in the search box asks the server once the user pauses, not on every key.
  const search = useDebouncedValue(searchText.trim(), SEARCH_DELAY_MS);
  const pageSizeId = useId();
  const sortId = useId();
  const sortable = columns.filter((column) => column.sortable);

  const query: TableQuery = {
    page,
    pageSize,
    ...sort,
    ...(search ? { search } : {}),
    ...(filterValue ? { filter: filterValue } : {}),
  };
  const result = useQuery({
    queryKey: [...queryKey, query],
    queryFn: () => queryFn(query),
    placeholderData: keepPreviousData,
    refetchInterval,
  });

  const tablePage = result.data || null;
  const count = tablePage?.count ?? 0;
  const lastPage = Math.max(1, Math.ceil(count / pageSize));
  const start = count === 0 ? 0 : (page - 1) * pageSize + 1;
  const stop = Math.min(page * pageSize, count);

  // A shrinking list can leave the page past its end: go to the last page there is.
  if (tablePage && page > lastPage) setPage(lastPage);

  const sortBy = (columnId: string, order: SortOrder) => {
    setSort({ sort: columnId, order });
    setPage(1);
  };
  const toggleSort = (columnId: string) =>
    sortBy(columnId, sort?.sort === columnId && sort.order === 'asc' ? 'desc' : 'asc');

  let status: string | null = null;
  if (result.isPending) status = t('table.loading');
  else if (!tablePage) status = t('table.failed');
  else if (tablePage.data.length === 0)
    // "No machine yet" would mislead when there are some and only the search found none.
    status = search
      ? t('table.noMatches', { search })
      : filterValue
        ? t('table.noneChosen')
        : (emptyMessage ?? t('table.empty'));

  return (
    <div className="flex flex-col gap-3">
      {(searchable || filter) && (
        <div className="flex flex-wrap items-center gap-3">
          {searchable && (
            <div className="relative w-full max-w-sm">
              <SearchIcon className="pointer-events-none absolute top-2.5 left-3 size-5 text-ink-muted" />
              <input
                type="search"
                aria-label={searchLabel ?? t('table.search')}
                placeholder={searchLabel ?? t('table.search')}
                value={searchText}
                onChange={(event) => {
                  setSearchText(event.target.value);
                  setPage(1);
                }}
                className="h-10 w-full rounded-md border border-line bg-surface pr-3 pl-10 text-ink placeholder:text-ink-muted"
              />
            </div>
          )}
          {filter && (
            <ToolbarSelect
              label={filter.label}
              allLabel={filter.allLabel}
              options={filter.options}
              value={filterValue}
              onChange={(value) => {
                setFilterValue(value);
                setPage(1);
              }}
            />
          )}
        </div>
      )}

      {/* A phone shows the rows as cards, without the header row's sort buttons: these stand in for them. */}
      {sortable.length > 0 && (
        <div className="flex flex-wrap items-center gap-2 text-sm sm:hidden">
          <label htmlFor={sortId} className="text-ink-muted">
            {t('table.sortBy')}
          </label>
          <select
            id={sortId}
            value={sort?.sort ?? ''}
            onChange={(event) => sortBy(event.target.value, sort?.order ?? 'asc')}
            className="h-9 min-w-0 flex-1 rounded-md border border-line bg-surface px-2 text-ink"
          >
            {!sort && <option value="">{t('table.defaultOrder')}</option>}
            {sortable.map((column) => (
              <option key={column.id} value={column.id}>
                {column.header}
              </option>
            ))}
          </select>
          <select
            aria-label={t('table.sortOrder')}
            value={sort?.order ?? 'asc'}
            disabled={!sort}
            onChange={(event) => sort && sortBy(sort.sort, event.target.value as SortOrder)}
            className="h-9 rounded-md border border-line bg-surface px-2 text-ink"
          >
            <option value="asc">{t('table.ascending')}</option>
            <option value="desc">{t('table.descending')}</option>
          </select>
        </div>
      )}

      <div className="overflow-x-auto rounded-xl border border-line bg-surface">
        <table aria-label={label} aria-busy={result.isFetching} className="w-full border-collapse text-sm max-sm:block">
          <thead className="bg-surface-muted max-sm:sr-only">
            <tr>
              {columns.map((column) => {
                const sorted = sort?.sort === column.id ? sort.order : undefined;
                return (
                  <th
                    key={column.id}
                    scope="col"
                    aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                    className={`px-4 py-3 text-left font-semibold ${column.className ?? ''}`}
                  >
                    {column.sortable ? (
                      <button
                        type="button"
                        onClick={() => toggleSort(column.id)}
                        className="-mx-1 inline-flex items-center gap-1 rounded px-1 hover:text-water"
                      >
                        {column.header}
                        {sorted === 'asc' && <SortAscIcon className="size-4" />}
                        {sorted === 'desc' && <SortDescIcon className="size-4" />}
                        {!sorted && <SortIcon className="size-4 text-ink-muted" />}
                      </button>
                    ) : (
                      column.header
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <TableBody
            columns={columns}
            rows={tablePage?.data ?? []}
            rowKey={rowKey}
            {...(rowClassName ? { rowClassName } : {})}
            status={status}
          />
        </table>
      </div>

      <div className="flex flex-wrap items-center justify-between gap-3 text-sm">
        <div className="flex items-center gap-2">
          <label htmlFor={pageSizeId} className="text-ink-muted">
            {t('table.pageSize')}
          </label>
          <select
            id={pageSizeId}
            value={pageSize}
            onChange={(event) => {
              setPageSize(Number(event.target.value));
              setPage(1);
            }}
            className="h-9 rounded-md border border-line bg-surface px-2 text-ink"
          >
            {pageSizes.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </div>
        <p aria-live="polite" className="text-ink-muted">
          {t('table.range', { start, stop, total: count })}
        </p>
        <div className="flex items-center gap-1">
          <IconButton label={t('table.previousPage')} disabled={page <= 1} onClick={() => setPage(page - 1)}>
            <ChevronLeftIcon />
          </IconButton>
          <span className="min-w-16 text-center">{t('table.page', { page, pages: lastPage })}</span>
          <IconButton label={t('table.nextPage')} disabled={page >= lastPage} onClick={() => setPage(page + 1)}>
            <ChevronRightIcon />
          </IconButton>
        </div>
      </div>
    </div>
  );
}
