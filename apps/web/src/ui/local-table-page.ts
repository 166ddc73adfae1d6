import type { TablePage, TableQuery } from './data-table';

export type LocalTableOptions<Row> = {
  /** The value a sortable column sorts by; null sorts last either way. */
  sortValue: (row: Row, columnId: string) => string | number | null;
  /** The texts the search box looks in. */
  searchText: (row: Row) => string[];
  locale: string;
};

/**
 * One page of rows the browser already has, for calls that answer the whole list at once:
 * searched, sorted and cut the way the data table asks a server to.
 */
export function localTablePage<Row>(
  rows: readonly Row[],
  query: TableQuery,
  options: LocalTableOptions<Row>,
): TablePage<Row> {
  const collator = new Intl.Collator(options.locale, { numeric: true, sensitivity: 'base' });
  const needle = query.search?.toLocaleLowerCase(options.locale);
  const found = needle
    ? rows.filter((row) =>
        options.searchText(row).some((text) => text.toLocaleLowerCase(options.locale).includes(needle)),
      )
    : [...rows];
  const { sort, order } = query;
  if (sort) {
    const direction = order === 'desc' ? -1 : 1;
    found.sort((a, b) => {
      const [left, right] = [options.sortValue(a, sort), options.sortValue(b, sort)];
      if (left === null || right === null) return left === right ? 0 : left === null ? 1 : -1;
      const compared =
        typeof left === 'number' && typeof right === 'number'
          ? left - right
          : collator.compare(String(left), String(right));
      return compared * direction;
    });
  }
  const start = (query.page - 1) * query.pageSize;
  return { count: found.length, data: found.slice(start, start + query.pageSize) };
}
