import type { ReactNode } from 'react';

/** A table's column: its name, and what its cell shows of a row. */
export type TableColumn<Row> = {
  id: string;
  header: string;
  cell: (row: Row) => ReactNode;
  className?: string;
};

/**
 * The rows of the app's tables, or, in place of them, what the table says instead (loading,
 * empty, failed). On a phone each row becomes a card, each value under its column's name;
 * `narrowLabels` gives the values more of a narrow screen.
 */
export function TableBody<Row>({
  columns,
  rows,
  rowKey,
  rowClassName,
  status,
  narrowLabels = false,
}: {
  columns: readonly TableColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
  rowClassName?: (row: Row) => string;
  status?: ReactNode;
  narrowLabels?: boolean;
}) {
  return (
    <tbody className="max-sm:block">
      {status ? (
        <tr className="max-sm:block">
          <td colSpan={columns.length} className="px-4 py-10 text-center text-ink-muted max-sm:block">
            {status}
          </td>
        </tr>
      ) : (
        rows.map((row) => (
          <tr
            key={rowKey(row)}
            className={`border-t border-line first:border-t-0 max-sm:block max-sm:px-4 max-sm:py-3 ${rowClassName?.(row) ?? ''}`}
          >
            {columns.map((column) => (
              <td
                key={column.id}
                className={`px-4 py-3 align-top max-sm:flex max-sm:gap-3 max-sm:px-0 max-sm:py-1 ${column.className ?? ''}`}
              >
                <span
                  aria-hidden="true"
                  className={`${narrowLabels ? 'w-24' : 'w-28'} shrink-0 font-medium whitespace-normal text-ink-muted sm:hidden`}
                >
                  {column.header}
                </span>
                <span className={`min-w-0 break-words ${narrowLabels ? 'flex-1' : ''}`}>{column.cell(row)}</span>
              </td>
            ))}
          </tr>
        ))
      )}
    </tbody>
  );
}
