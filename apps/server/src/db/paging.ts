import { type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

/**
 * The number of rows of `table` matching `where`, as a column of each page row: a scalar
 * subquery, so the page still comes off its index and the count stays index-only.
 * Faster in bench:api-study-detail than both the separate count and `count(*) over ()` (which
 * builds every matching row: participants 118 against 532 req/s).
 */
export const totalOf = (table: PgTable, where: SQL | undefined): SQL.Aliased<number> =>
  sql<number>`(select count(*)::int from ${table} where ${where ?? sql`true`})`.as('total_count');

/**
 * A page whose rows carry the total. Past the last page no row carries it, so it is counted
 * separately then (only then: an empty first page means a total of 0).
 */
export async function pageWithTotal<T extends { totalCount: number }>(
  rows: T[],
  offset: number,
  countAll: () => Promise<number>,
): Promise<{ rows: Omit<T, 'totalCount'>[]; totalCount: number }> {
  const first = rows[0];
  const totalCount = first ? first.totalCount : offset === 0 ? 0 : await countAll();
  return { rows: rows.map(({ totalCount: _, ...row }) => row), totalCount };
}
