import { useState, type Key, type ReactNode } from 'react';
import { useT } from '@xoss/i18n/react';

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
  /**
   * A long table shows its first `collapseAfter` rows and a "Show all {count}" button (a
   * table of at most two rows more shows them all): a ride's 20 laps do not push the rest of
   * the page five screens down on a phone.
   */
  readonly collapseAfter?: number;
  /** A row that must be in view (a climb picked on the chart or the map): shows them all. */
  readonly revealIndex?: number | null;
}

/**
 * A table of figures, a row per lap, interval, climb or ride: a first column naming each row,
 * then one column per figure. On a phone it stacks into a card per row, each figure with its
 * column's name in front (`data-stack`, `data-label`), so it never scrolls sideways.
 */
export function ColumnTable<Row>(props: ColumnTableProps<Row>) {
  const t = useT();
  const [expanded, setExpanded] = useState(false);
  // A row picked elsewhere beyond the first ones opens the table (once per pick).
  const [revealed, setRevealed] = useState(props.revealIndex);
  const limit = props.collapseAfter ?? Infinity;
  if (props.revealIndex !== revealed) {
    setRevealed(props.revealIndex);
    if (props.revealIndex != null && props.revealIndex >= limit) setExpanded(true);
  }
  const collapsible = props.rows.length > limit + 2;
  const rows = collapsible && !expanded ? props.rows.slice(0, limit) : props.rows;
  const table = (
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
        {rows.map((row, index) => (
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
  if (!collapsible) return table;
  return (
    <>
      {table}
      <p className="portal__actions">
        <button
          type="button"
          className="xoss-button"
          aria-expanded={expanded}
          onClick={() => setExpanded(!expanded)}
        >
          {expanded ? t('workouts.showFewer') : t('workouts.showAll', { count: props.rows.length })}
        </button>
      </p>
    </>
  );
}
