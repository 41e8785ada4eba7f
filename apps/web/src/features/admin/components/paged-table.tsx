import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import type { ReactNode } from 'react';
import { ADMIN_PAGE_SIZE } from '../api/admin-keys';
import { useFullScreenDialog } from './admin-ui';

interface PagedTableProps {
  /** Accessible name of the table. */
  label: string;
  headers: readonly string[];
  totalCount: number;
  /** Zero-based. */
  page: number;
  onPageChange: (page: number) => void;
  /** The rows as table rows (from the small breakpoint up). */
  children: ReactNode;
  /** The same rows as stacked cards, one `<li>` each (phones). */
  cards: ReactNode;
}

/**
 * One server page (ADMIN_PAGE_SIZE rows, limit/offset on the server) with MUI's pagination
 * below: a table from the small breakpoint up, a list of cards on phones, where six columns
 * would not fit and the actions would sit off-screen.
 */
export function PagedTable({
  label,
  headers,
  totalCount,
  page,
  onPageChange,
  children,
  cards,
}: PagedTableProps) {
  const phone = useFullScreenDialog();
  return (
    <>
      {phone ? (
        <Box
          component="ul"
          aria-label={label}
          sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1.5 }}
        >
          {cards}
        </Box>
      ) : (
        <TableContainer sx={{ overflowX: 'auto' }}>
          <Table aria-label={label} sx={{ minWidth: 860 }}>
            <TableHead>
              <TableRow>
                {headers.map((header) => (
                  <TableCell key={header} sx={{ fontWeight: 700, whiteSpace: 'nowrap' }}>
                    {header}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>{children}</TableBody>
          </Table>
        </TableContainer>
      )}
      <TablePagination
        component="div"
        count={totalCount}
        page={page}
        onPageChange={(_, next) => onPageChange(next)}
        rowsPerPage={ADMIN_PAGE_SIZE}
        rowsPerPageOptions={[ADMIN_PAGE_SIZE]}
        // On phones the rows-per-page label would push the page arrows off the edge.
        labelRowsPerPage={phone ? '' : undefined}
        sx={phone ? { '.MuiTablePagination-toolbar': { px: 0 } } : undefined}
      />
    </>
  );
}

/** Keeps the page inside the list after rows leave it (e.g. the last row of the last page). */
export function clampPage(page: number, totalCount: number): number {
  const lastPage = Math.max(0, Math.ceil(totalCount / ADMIN_PAGE_SIZE) - 1);
  return Math.min(page, lastPage);
}
