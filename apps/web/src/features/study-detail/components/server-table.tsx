import Search from '@mui/icons-material/Search';
import Box from '@mui/material/Box';
import InputAdornment from '@mui/material/InputAdornment';
import LinearProgress from '@mui/material/LinearProgress';
import TextField from '@mui/material/TextField';
import { STUDY_DETAIL_TEXTS } from '@research/contracts';
import { type ReactNode, useEffect, useState } from 'react';
import {
  type ResponsiveColumn,
  ResponsiveTable,
  type SortOrder,
} from '../../../components/responsive-table';
import { STUDY_DETAIL_PAGE_SIZES } from '../api/keys';

export type { SortOrder };

/** What one server page is asked for: limit/offset, sort column and order, search text. */
export interface ListQuery<S extends string> {
  limit: number;
  offset: number;
  sort: S;
  order: SortOrder;
  search: string;
}

export interface ListState<S extends string> {
  query: ListQuery<S>;
  /** The search box's text, ahead of `query.search` while typing. */
  searchInput: string;
  setSearchInput: (value: string) => void;
  setPage: (page: number) => void;
  setRowsPerPage: (rows: number) => void;
  toggleSort: (column: S) => void;
}

const SEARCH_DEBOUNCE_MS = 300;

/**
 * Paging, sorting and search of one server-side list. A new sort or search goes back to the first
 * page; the search is sent once typing pauses, so thousands of rows never reach the browser.
 */
export function useListState<S extends string>(
  defaultSort: S,
  defaultOrder: SortOrder = 'desc',
): ListState<S> {
  const [page, setPage] = useState(0);
  const [limit, setLimit] = useState<number>(STUDY_DETAIL_PAGE_SIZES[0]);
  const [sort, setSort] = useState<S>(defaultSort);
  const [order, setOrder] = useState<SortOrder>(defaultOrder);
  const [searchInput, setSearchInput] = useState('');
  const [search, setSearch] = useState('');

  useEffect(() => {
    const next = searchInput.trim();
    if (next === search) return;
    const timer = setTimeout(() => {
      setSearch(next);
      setPage(0);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [searchInput, search]);

  return {
    query: { limit, offset: page * limit, sort, order, search },
    searchInput,
    setSearchInput,
    setPage,
    setRowsPerPage: (rows) => {
      setLimit(rows);
      setPage(0);
    },
    toggleSort: (column) => {
      if (column === sort) {
        setOrder(order === 'asc' ? 'desc' : 'asc');
      } else {
        setSort(column);
        setOrder('asc');
      }
      setPage(0);
    },
  };
}

export type Column<R, S extends string> = ResponsiveColumn<R, S>;

export interface ServerTableProps<R, S extends string> {
  label: string;
  columns: readonly Column<R, S>[];
  rows: readonly R[];
  rowKey: (row: R) => string;
  state: ListState<S>;
  totalCount: number;
  fetching: boolean;
  searchPlaceholder: string;
  /** Shown instead of rows when a search finds nothing. */
  noMatches: ReactNode;
  minWidth?: number;
}

/**
 * One server page with a search box, sorting and pagination: a table on a wide screen, one card
 * per row on a phone (see ResponsiveTable).
 */
export function ServerTable<R, S extends string>({
  label,
  columns,
  rows,
  rowKey,
  state,
  totalCount,
  fetching,
  searchPlaceholder,
  noMatches,
  minWidth = 760,
}: ServerTableProps<R, S>) {
  const { query, setPage } = state;
  const page = Math.floor(query.offset / query.limit);
  const lastPage = Math.max(0, Math.ceil(totalCount / query.limit) - 1);
  const rowCount = rows.length;
  // Rows left the last page (a delete, a removal): step back to the page that still has rows.
  useEffect(() => {
    if (!fetching && rowCount === 0 && page > lastPage) setPage(lastPage);
  }, [fetching, rowCount, page, lastPage, setPage]);
  return (
    <Box>
      <Box sx={{ p: 2, pb: 1 }}>
        <TextField
          size="small"
          type="search"
          label={STUDY_DETAIL_TEXTS.searchLabel}
          placeholder={searchPlaceholder}
          value={state.searchInput}
          onChange={(event) => state.setSearchInput(event.target.value)}
          sx={{ width: { xs: '100%', sm: 360 } }}
          slotProps={{
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <Search fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
      </Box>
      <Box sx={{ height: 4 }}>{fetching && <LinearProgress aria-hidden />}</Box>
      <ResponsiveTable
        label={label}
        columns={columns}
        rows={rows}
        rowKey={rowKey}
        empty={fetching ? undefined : noMatches}
        minWidth={minWidth}
        sort={{ by: query.sort, order: query.order, onSort: state.toggleSort }}
        pagination={{
          count: totalCount,
          page: Math.min(page, lastPage),
          rowsPerPage: query.limit,
          rowsPerPageOptions: STUDY_DETAIL_PAGE_SIZES,
          onPageChange: setPage,
          onRowsPerPageChange: state.setRowsPerPage,
        }}
      />
    </Box>
  );
}
