import ArrowDownward from '@mui/icons-material/ArrowDownward';
import ArrowUpward from '@mui/icons-material/ArrowUpward';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import type { SxProps, Theme } from '@mui/material/styles';
import { useTheme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { TABLE_TEXTS } from '@research/contracts';
import { Fragment, type ReactNode } from 'react';

export type SortOrder = 'asc' | 'desc';

/**
 * Where a column's value goes on a card: the card's heading, a badge beside it (a status
 * chip), the buttons at its foot, or (the default) a labelled line.
 */
export type CardPlace = 'title' | 'badge' | 'actions' | 'field';

export interface ResponsiveColumn<R, S extends string = string> {
  /** The header, and the label of the value on a card. */
  label: string;
  render: (row: R) => ReactNode;
  align?: 'left' | 'right' | 'center';
  /** The server's sort key; a column without one cannot be sorted. */
  sortKey?: S;
  card?: CardPlace;
  /** The value's own style (wrapping, width, monospace), in its table cell and on a card. */
  cellSx?: SxProps<Theme>;
}

export interface ResponsiveSort<S extends string> {
  by: S;
  order: SortOrder;
  /** The same column again flips the order; another column sorts ascending. */
  onSort: (key: S) => void;
}

export interface ResponsivePagination {
  count: number;
  /** Zero-based. */
  page: number;
  rowsPerPage: number;
  rowsPerPageOptions: readonly number[];
  onPageChange: (page: number) => void;
  onRowsPerPageChange?: (rows: number) => void;
}

export interface ResponsiveTableProps<R, S extends string = string> {
  /** The accessible name of the table, or of the card list. */
  label: string;
  columns: readonly ResponsiveColumn<R, S>[];
  rows: readonly R[];
  rowKey: (row: R) => string;
  /** Extra attributes of each row and card (data-* for tests and styling). */
  rowAttributes?: (row: R) => Record<string, string>;
  /** Shown instead of rows when there are none. */
  empty?: ReactNode;
  sort?: ResponsiveSort<S>;
  pagination?: ResponsivePagination;
  /** Below this breakpoint each row is a card; default `sm` (phones). */
  cardsBelow?: 'sm' | 'md';
  /** The table's least width; a narrower screen scrolls the table inside its frame. */
  minWidth?: number;
  size?: 'small' | 'medium';
  /** Cards in a dialog or a card have no border of their own to keep them apart: a rule does. */
  dense?: boolean;
}

/**
 * One list, two layouts: a table on a wide screen, and below `cardsBelow` one card per row with
 * every column's value on its own labelled line, so nothing on a phone is cut off or hidden in
 * a sideways scroll. The pager stays inside the frame at any width.
 */
export function ResponsiveTable<R, S extends string = string>(props: ResponsiveTableProps<R, S>) {
  const theme = useTheme();
  // noSsr: read the screen at once, so a phone never paints the table first.
  const cards = useMediaQuery(theme.breakpoints.down(props.cardsBelow ?? 'sm'), { noSsr: true });
  const { rows, empty, pagination } = props;
  return (
    <Box sx={{ minWidth: 0 }}>
      {cards && props.sort && rows.length > 1 && (
        <CardSort columns={props.columns} sort={props.sort} />
      )}
      {rows.length === 0 && empty !== undefined ? (
        <Box sx={{ py: 4, px: 2, textAlign: 'center' }}>{empty}</Box>
      ) : cards ? (
        <CardList {...props} />
      ) : (
        <WideTable {...props} />
      )}
      {pagination && (
        <TablePagination
          component="div"
          count={pagination.count}
          page={pagination.page}
          rowsPerPage={pagination.rowsPerPage}
          rowsPerPageOptions={[...pagination.rowsPerPageOptions]}
          onPageChange={(_, next) => pagination.onPageChange(next)}
          onRowsPerPageChange={(event) =>
            pagination.onRowsPerPageChange?.(Number(event.target.value))
          }
          labelRowsPerPage={TABLE_TEXTS.rowsPerPage}
          // On a phone the toolbar wraps instead of pushing the page arrows past the edge.
          sx={{
            overflow: 'visible',
            '& .MuiTablePagination-toolbar': {
              flexWrap: 'wrap',
              justifyContent: 'flex-end',
              px: { xs: 0, sm: 2 },
              rowGap: 0.5,
            },
            '& .MuiTablePagination-spacer': { display: { xs: 'none', sm: 'block' } },
            '& .MuiTablePagination-actions': { ml: { xs: 1, sm: 2.5 } },
          }}
        />
      )}
    </Box>
  );
}

function WideTable<R, S extends string>({
  label,
  columns,
  rows,
  rowKey,
  rowAttributes,
  sort,
  minWidth,
  size = 'small',
}: ResponsiveTableProps<R, S>) {
  const pinActions = columns.at(-1)?.card === 'actions';
  return (
    <TableContainer sx={{ overflowX: 'auto' }}>
      <Table
        aria-label={label}
        size={size}
        sx={{
          minWidth,
          // Between a phone and a wide screen the table may still scroll sideways: its buttons
          // stay pinned in view on the right.
          ...(pinActions && {
            '& tr > th:last-of-type, & tr > td:last-of-type': {
              position: { xs: 'sticky', md: 'static' },
              right: 0,
              bgcolor: 'background.paper',
              boxShadow: { xs: '-6px 0 6px -6px rgba(0, 0, 0, 0.25)', md: 'none' },
            },
          }),
        }}
      >
        <TableHead>
          <TableRow>
            {columns.map((column) => (
              <TableCell
                key={column.label}
                align={column.align}
                sx={{ fontWeight: 700, whiteSpace: 'nowrap' }}
                sortDirection={sort && column.sortKey === sort.by ? sort.order : false}
              >
                {sort && column.sortKey ? (
                  <TableSortLabel
                    active={column.sortKey === sort.by}
                    direction={column.sortKey === sort.by ? sort.order : 'asc'}
                    onClick={() => column.sortKey && sort.onSort(column.sortKey)}
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
          {rows.map((row) => (
            <TableRow key={rowKey(row)} hover {...rowAttributes?.(row)}>
              {columns.map((column) => (
                <TableCell
                  key={column.label}
                  align={column.align}
                  sx={
                    column.card === 'actions'
                      ? { whiteSpace: 'nowrap', ...column.cellSx }
                      : column.cellSx
                  }
                >
                  {column.render(row)}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function CardList<R, S extends string>({
  label,
  columns,
  rows,
  rowKey,
  rowAttributes,
  dense,
}: ResponsiveTableProps<R, S>) {
  const place = (column: ResponsiveColumn<R, S>) => column.card ?? 'field';
  const title = columns.find((column) => place(column) === 'title');
  const badges = columns.filter((column) => place(column) === 'badge');
  const fields = columns.filter((column) => place(column) === 'field');
  const actions = columns.filter((column) => place(column) === 'actions');
  return (
    <Box
      component="ul"
      aria-label={label}
      sx={{ listStyle: 'none', m: 0, p: dense ? 0 : 1.5, display: 'grid', gap: dense ? 0 : 1.5 }}
    >
      {rows.map((row) => (
        <Box
          component="li"
          key={rowKey(row)}
          {...rowAttributes?.(row)}
          sx={{
            minWidth: 0,
            ...(dense
              ? { py: 1.5, borderTop: 1, borderColor: 'divider' }
              : { p: 1.5, border: 1, borderColor: 'divider', borderRadius: 1 }),
          }}
        >
          {(title || badges.length > 0) && (
            <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
              {title && (
                <Typography
                  component="div"
                  sx={{ fontWeight: 600, flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}
                >
                  {title.render(row)}
                </Typography>
              )}
              {badges.map((column) => (
                <Fragment key={column.label}>{column.render(row)}</Fragment>
              ))}
            </Box>
          )}
          <Box
            component="dl"
            sx={{
              m: 0,
              mt: title || badges.length > 0 ? 1 : 0,
              display: 'grid',
              gridTemplateColumns: 'minmax(5.5rem, max-content) minmax(0, 1fr)',
              columnGap: 1.5,
              rowGap: 0.5,
            }}
          >
            {fields.map((column) => (
              <Fragment key={column.label}>
                <Typography component="dt" variant="body2" color="text.secondary">
                  {column.label}
                </Typography>
                <Typography
                  component="dd"
                  variant="body2"
                  sx={[
                    { m: 0, minWidth: 0, overflowWrap: 'anywhere' },
                    ...(Array.isArray(column.cellSx) ? column.cellSx : [column.cellSx]),
                  ]}
                >
                  {column.render(row)}
                </Typography>
              </Fragment>
            ))}
          </Box>
          {actions.length > 0 && (
            <Box
              sx={{
                display: 'flex',
                justifyContent: 'flex-end',
                flexWrap: 'wrap',
                gap: 0.5,
                mt: 1,
              }}
            >
              {actions.map((column) => (
                <Fragment key={column.label}>{column.render(row)}</Fragment>
              ))}
            </Box>
          )}
        </Box>
      ))}
    </Box>
  );
}

/** Cards have no headers to click: a select and an order button sort them instead. */
function CardSort<R, S extends string>({
  columns,
  sort,
}: {
  columns: readonly ResponsiveColumn<R, S>[];
  sort: ResponsiveSort<S>;
}) {
  const sortable = columns.filter((column) => column.sortKey);
  const current = sortable.find((column) => column.sortKey === sort.by);
  const now = sort.order === 'asc' ? TABLE_TEXTS.ascending : TABLE_TEXTS.descending;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 2, pt: 1 }}>
      <TextField
        select
        size="small"
        label={TABLE_TEXTS.sortBy}
        value={sort.by}
        onChange={(event) => {
          const key = event.target.value as S;
          if (key !== sort.by) sort.onSort(key);
        }}
        sx={{ flex: 1, minWidth: 0 }}
      >
        {sortable.map((column) => (
          <MenuItem key={column.label} value={column.sortKey}>
            {column.label}
          </MenuItem>
        ))}
      </TextField>
      <IconButton
        aria-label={TABLE_TEXTS.reverseOrder(current?.label ?? '', now)}
        onClick={() => sort.onSort(sort.by)}
      >
        {sort.order === 'asc' ? <ArrowUpward /> : <ArrowDownward />}
      </IconButton>
    </Box>
  );
}
