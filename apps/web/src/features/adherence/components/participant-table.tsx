import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { ADHERENCE_TEXTS, type AdherenceRow } from '@research/contracts';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { LastSynced } from '../../../components/device-sync-cells';
import { type ResponsiveColumn, ResponsiveTable } from '../../../components/responsive-table';
import { displayName } from '../model';

const T = ADHERENCE_TEXTS.table;
const PAGE_SIZES = [25, 50, 100] as const;

/** At risk, a connection to renew, or on track: said in words, the colour only repeats it. */
function StatusChip({ row }: { row: AdherenceRow }) {
  if (row.connection === 'not_connected')
    return <Chip size="small" variant="outlined" label={T.notConnected} />;
  if (row.connection === 'needs_reauthorization')
    return <Chip size="small" color="warning" label={T.needsReauthorization} />;
  if (row.atRisk) return <Chip size="small" color="error" label={T.atRisk} />;
  return <Chip size="small" color="success" variant="outlined" label={T.onTrack} />;
}

const columns = (studyId: string): ResponsiveColumn<AdherenceRow>[] => [
  {
    label: T.participant,
    card: 'title',
    render: (row) => (
      <>
        <Link
          component={RouterLink}
          to={`/researcher/study/${studyId}/participant/${row.id}`}
          aria-label={T.openCharts(displayName(row))}
        >
          {displayName(row)}
        </Link>
        {row.name && (
          <Typography component="span" variant="body2" color="text.secondary" sx={{ ml: 1 }}>
            {row.participantId}
          </Typography>
        )}
      </>
    ),
    cellSx: { overflowWrap: 'anywhere' },
  },
  { label: T.status, card: 'badge', render: (row) => <StatusChip row={row} /> },
  { label: T.lastSynced, render: (row) => <LastSynced at={row.lastDeviceSyncAt} /> },
  {
    label: T.battery,
    render: (row) =>
      row.batteryLevel === null ? (
        <Typography component="span" variant="body2" color="text.secondary">
          {T.batteryUnknown}
        </Typography>
      ) : (
        T.batteryValue(row.batteryLevel)
      ),
  },
  {
    label: T.validDays,
    align: 'right',
    render: (row) => T.validDaysValue(row.validDays, row.eligibleDays),
    cellSx: { whiteSpace: 'nowrap' },
  },
];

/** Each participant's last sync, battery, valid days and status; a name opens the charts. */
export function ParticipantTable({
  studyId,
  rows,
}: {
  studyId: string;
  rows: readonly AdherenceRow[];
}) {
  const [page, setPage] = useState(0);
  const [rowsPerPage, setRowsPerPage] = useState<number>(PAGE_SIZES[0]);
  const lastPage = Math.max(0, Math.ceil(rows.length / rowsPerPage) - 1);
  const current = Math.min(page, lastPage);
  return (
    <ResponsiveTable
      label={T.label}
      columns={columns(studyId)}
      rows={rows.slice(current * rowsPerPage, (current + 1) * rowsPerPage)}
      rowKey={(row) => row.id}
      pagination={
        rows.length > PAGE_SIZES[0]
          ? {
              count: rows.length,
              page: current,
              rowsPerPage,
              rowsPerPageOptions: PAGE_SIZES,
              onPageChange: setPage,
              onRowsPerPageChange: (size) => {
                setRowsPerPage(size);
                setPage(0);
              },
            }
          : undefined
      }
      minWidth={640}
    />
  );
}
