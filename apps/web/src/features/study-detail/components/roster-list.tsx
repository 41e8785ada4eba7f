import Chip from '@mui/material/Chip';
import { formatDateShort } from '@research/contracts';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ListTabGate } from './empty-panel';
import { phoneText } from './row-action';
import { type Column, type ListState, ServerTable } from './server-table';

/**
 * The columns the participants and pending-participants lists share, so both show an address,
 * a phone, a status and a date the same way.
 */
export const rosterColumns = {
  email: <R, S extends string>(label: string, sortKey: S, email: (row: R) => string) =>
    ({ label, sortKey, render: email, cellSx: { overflowWrap: 'anywhere' } }) satisfies Column<
      R,
      S
    >,
  phone: <R, S extends string>(
    label: string,
    sortKey: S,
    phone: (row: R) => string | null | undefined,
  ) =>
    ({
      label,
      sortKey,
      render: (row: R) => phoneText(phone(row)),
      cellSx: { whiteSpace: 'nowrap' },
    }) satisfies Column<R, S>,
  status: <R, S extends string>(
    label: string,
    sortKey: S,
    status: (row: R) => string,
    color: (status: string) => 'success' | 'warning' | 'info' | 'secondary' | 'error' | 'default',
  ) =>
    ({
      label,
      sortKey,
      card: 'badge',
      render: (row: R) => <Chip size="small" label={status(row)} color={color(status(row))} />,
    }) satisfies Column<R, S>,
  date: <R, S extends string>(label: string, sortKey: S, date: (row: R) => string) =>
    ({
      label,
      sortKey,
      render: (row: R) => formatDateShort(date(row)),
      cellSx: { whiteSpace: 'nowrap' },
    }) satisfies Column<R, S>,
  actions: <R, S extends string>(label: string, buttons: (row: R) => ReactNode) =>
    ({ label, align: 'right', card: 'actions', render: buttons }) satisfies Column<R, S>,
};

export interface RosterListProps<D extends { totalCount: number }, R, S extends string> {
  query: UseQueryResult<D>;
  list: ListState<S>;
  rowsOf: (data: D) => readonly R[];
  rowKey: (row: R) => string;
  label: string;
  columns: readonly Column<R, S>[];
  searchPlaceholder: string;
  noMatches: ReactNode;
  /** The study has no rows at all yet. */
  empty: ReactNode;
  minWidth: number;
  /** The dialogs the rows' buttons open. */
  children?: ReactNode;
}

/** A roster tab: its loading, failure and empty states, then the searchable server list. */
export function RosterList<D extends { totalCount: number }, R, S extends string>({
  query,
  list,
  rowsOf,
  children,
  empty,
  ...table
}: RosterListProps<D, R, S>) {
  return (
    <ListTabGate query={query} list={list} empty={empty}>
      {(data) => (
        <>
          <ServerTable
            {...table}
            rows={rowsOf(data)}
            state={list}
            totalCount={data.totalCount}
            fetching={query.isFetching}
          />
          {children}
        </>
      )}
    </ListTabGate>
  );
}
