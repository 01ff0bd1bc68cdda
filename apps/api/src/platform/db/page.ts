import type { Queryable } from './db.ts';

/** Which page of a list: 1-based, and how many rows a page holds. */
export interface PageWindow {
  readonly page: number;
  readonly page_size: number;
}

/**
 * A list's SQL: `select` without ORDER BY/LIMIT, and `count` counting the same rows (with
 * `countParams` when they differ from `params`).
 */
export interface PageSql {
  readonly select: string;
  readonly params: readonly unknown[];
  readonly orderBy: string;
  readonly count: string;
  readonly countParams?: readonly unknown[];
}

/** One page of rows and how many there are in all. */
export interface RowPage<Row> {
  readonly count: number;
  readonly rows: Row[];
}

/** Reads one page of a list (`window` is parsed and bounded by the contract's schema). */
export async function pageOf<Row>(
  db: Queryable,
  sql: PageSql,
  window: PageWindow,
): Promise<RowPage<Row>> {
  const [[counted], rows] = await Promise.all([
    db.query<{ count: number }>(sql.count, [...(sql.countParams ?? sql.params)]),
    db.query<Row>(
      `${sql.select} ORDER BY ${sql.orderBy} LIMIT ${window.page_size} OFFSET ${(window.page - 1) * window.page_size}`,
      [...sql.params],
    ),
  ]);
  return { count: counted?.count ?? 0, rows };
}
