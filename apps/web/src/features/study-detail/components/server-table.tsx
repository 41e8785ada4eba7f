import Search from '@mui/icons-material/Search';
import Box from '@mui/material/Box';
import InputAdornment from '@mui/material/InputAdornment';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import TextField from '@mui/material/TextField';
import { STUDY_DETAIL_TEXTS } from '@research/contracts';
import { type ReactNode, useEffect, useState } from 'react';
import { STUDY_DETAIL_PAGE_SIZES } from '../api/keys';

export type SortOrder = 'asc' | 'desc';

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

export interface Column<S extends string> {
  label: string;
  /** The server's sort key; columns without one (actions) are not sortable. */
  sortKey?: S;
  align?: 'left' | 'right' | 'center';
}

export interface ServerTableProps<S extends string> {
  label: string;
  columns: readonly Column<S>[];
  state: ListState<S>;
  totalCount: number;
  fetching: boolean;
  searchPlaceholder: string;
  /** Shown instead of rows when a search finds nothing. */
  noMatches: ReactNode;
  rowCount: number;
  children: ReactNode;
  minWidth?: number;
}

/**
 * A table of one server page with a search box, sortable headers and pagination. On a phone the
 * table keeps its width and scrolls sideways inside the card instead of squeezing the columns;
 * the last column (Actions) stays pinned on the right.
 */
export function ServerTable<S extends string>({
  label,
  columns,
  state,
  totalCount,
  fetching,
  searchPlaceholder,
  noMatches,
  rowCount,
  children,
  minWidth = 760,
}: ServerTableProps<S>) {
  const { query, setPage } = state;
  const page = Math.floor(query.offset / query.limit);
  const lastPage = Math.max(0, Math.ceil(totalCount / query.limit) - 1);
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
      <TableContainer sx={{ overflowX: 'auto' }}>
        <Table
          aria-label={label}
          size="small"
          sx={{
            minWidth,
            // On a narrow screen the Actions column (the last) stays in view while the rest of
            // the row scrolls sideways under it.
            '& tr > th:last-of-type, & tr > td:last-of-type:not([colspan])': {
              position: { xs: 'sticky', md: 'static' },
              right: 0,
              bgcolor: 'background.paper',
              boxShadow: { xs: '-6px 0 6px -6px rgba(0, 0, 0, 0.25)', md: 'none' },
            },
          }}
        >
          <TableHead>
            <TableRow>
              {columns.map((column) => (
                <TableCell
                  key={column.label}
                  align={column.align}
                  sx={{ fontWeight: 700, whiteSpace: 'nowrap' }}
                  sortDirection={column.sortKey === query.sort ? query.order : false}
                >
                  {column.sortKey ? (
                    <TableSortLabel
                      active={column.sortKey === query.sort}
                      direction={column.sortKey === query.sort ? query.order : 'asc'}
                      onClick={() => column.sortKey && state.toggleSort(column.sortKey)}
                    >
                      {column.label}
                    </TableSortLabel>
                  ) : (
                    column.label
                  )}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rowCount === 0 && !fetching ? (
              <TableRow>
                <TableCell colSpan={columns.length} align="center" sx={{ py: 4 }}>
                  {noMatches}
                </TableCell>
              </TableRow>
            ) : (
              children
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePagination
        component="div"
        count={totalCount}
        page={Math.min(page, lastPage)}
        onPageChange={(_, next) => state.setPage(next)}
        rowsPerPage={query.limit}
        rowsPerPageOptions={[...STUDY_DETAIL_PAGE_SIZES]}
        onRowsPerPageChange={(event) => state.setRowsPerPage(Number(event.target.value))}
        labelRowsPerPage={STUDY_DETAIL_TEXTS.rowsLabel}
      />
    </Box>
  );
}
