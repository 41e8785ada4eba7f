import { type SQL, sql } from 'drizzle-orm';

/** Paging, search and order shared by the participant and roster lists. */

/** `%term%` with LIKE's wildcards taken literally. */
export const containing = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export interface Page<S extends string> {
  limit: number;
  offset: number;
  sort: S;
  order: 'asc' | 'desc';
  search?: string | undefined;
}

/**
 * `nulls last` only where a sort column can be null: on a NOT NULL column it changes no result
 * but keeps Postgres from reading a descending page backwards off an index (the partial indexes
 * of 0004_seed_001.sql).
 */
export const ordered = (column: SQL, order: 'asc' | 'desc', nullable: boolean) =>
  nullable ? sql`${column} ${sql.raw(order)} nulls last` : sql`${column} ${sql.raw(order)}`;
