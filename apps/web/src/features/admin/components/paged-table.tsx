import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import type { ReactNode } from 'react';
import { ADMIN_PAGE_SIZE } from '../api/admin-keys';

interface PagedTableProps {
  /** Accessible name of the table. */
  label: string;
  headers: readonly string[];
  totalCount: number;
  /** Zero-based. */
  page: number;
  onPageChange: (page: number) => void;
  children: ReactNode;
}

/**
 * A table of one server page (ADMIN_PAGE_SIZE rows, limit/offset on the server) with MUI's
 * pagination below. On narrow screens the table keeps its width and scrolls sideways inside its
 * container instead of squeezing the columns.
 */
export function PagedTable({
  label,
  headers,
  totalCount,
  page,
  onPageChange,
  children,
}: PagedTableProps) {
  return (
    <>
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
      <TablePagination
        component="div"
        count={totalCount}
        page={page}
        onPageChange={(_, next) => onPageChange(next)}
        rowsPerPage={ADMIN_PAGE_SIZE}
        rowsPerPageOptions={[ADMIN_PAGE_SIZE]}
      />
    </>
  );
}

/** Keeps the page inside the list after rows leave it (e.g. the last row of the last page). */
export function clampPage(page: number, totalCount: number): number {
  const lastPage = Math.max(0, Math.ceil(totalCount / ADMIN_PAGE_SIZE) - 1);
  return Math.min(page, lastPage);
}
