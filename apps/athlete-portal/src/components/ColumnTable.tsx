import type { Key, ReactNode } from 'react';

/** A column of figures: its heading, and its cell for one row. */
export interface Column<Row> {
  readonly label: string;
  readonly cell: (row: Row) => ReactNode;
}

export interface ColumnTableProps<Row> {
  /** The caption, or (with `labelledBy`) none: the table is named by a heading outside it. */
  readonly caption?: ReactNode;
  readonly captionId?: string;
  readonly labelledBy?: string;
  /** The heading of the first column, whose cells name each row. */
  readonly rowHeading: string;
  readonly rows: readonly Row[];
  readonly rowKey: (row: Row) => Key;
  /** What names the row (a number, a link, a button that zooms to it). */
  readonly rowHead: (row: Row, index: number) => ReactNode;
  /** Data attributes of a row's `tr` (`data-active` for a picked climb). */
  readonly rowData?: (
    row: Row,
    index: number,
  ) => Record<`data-${string}`, string | number | boolean>;
  readonly columns: readonly Column<Row>[];
}

/**
 * A table of figures, a row per lap, interval, climb or ride: a first column naming each row,
 * then one column per figure. On a phone it stacks into a card per row, each figure with its
 * column's name in front (`data-stack`, `data-label`), so it never scrolls sideways.
 */
export function ColumnTable<Row>(props: ColumnTableProps<Row>) {
  return (
    <table className="xoss-table" data-stack aria-labelledby={props.labelledBy}>
      {props.caption !== undefined ? <caption id={props.captionId}>{props.caption}</caption> : null}
      <thead>
        <tr>
          <th scope="col">{props.rowHeading}</th>
          {props.columns.map((column) => (
            <th key={column.label} scope="col">
              {column.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {props.rows.map((row, index) => (
          <tr key={props.rowKey(row)} {...props.rowData?.(row, index)}>
            <th scope="row">{props.rowHead(row, index)}</th>
            {props.columns.map((column) => (
              <td key={column.label} data-label={column.label}>
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
