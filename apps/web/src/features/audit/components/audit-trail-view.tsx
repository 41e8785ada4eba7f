import Download from '@mui/icons-material/Download';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import { useTheme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import {
  AUDIT_KIND_LABELS,
  type AuditEvent,
  type AuditKind,
  auditActionLabel,
  auditActorLabel,
  AUDIT_TEXTS as T,
} from '@research/contracts';
import { useMemo, useState } from 'react';
import {
  type AuditFilters,
  type AuditScope,
  useAuditTrail,
  useDownloadAuditCsv,
} from '../api/audit-trail';

export interface PersonOption {
  id: string;
  label: string;
}

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

const targetOf = (event: AuditEvent) =>
  event.targetType ? [event.targetType, event.targetId].filter(Boolean).join(' ') : '—';

/** One entry's "What": the readable label, with the raw action beneath it. */
function What({ event }: { event: AuditEvent }) {
  return (
    <>
      <Typography variant="body2">{auditActionLabel(event.action)}</Typography>
      <Typography variant="caption" color="text.secondary" sx={{ fontFamily: 'monospace' }}>
        {event.action}
      </Typography>
    </>
  );
}

/**
 * A trail with its filters (person, kind, date range), a table (cards on a phone), "Load more"
 * from the server's cursor, and the CSV of everything the filters match.
 */
export function AuditTrailView({
  scope,
  kinds,
  people,
  csvName,
}: {
  scope: AuditScope;
  kinds: readonly AuditKind[];
  /** The people the person filter offers; without them, those seen on the loaded pages. */
  people?: PersonOption[];
  csvName: string;
}) {
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('md'));
  const [filters, setFilters] = useState<AuditFilters>({});
  const rangeInvalid = Boolean(filters.from && filters.to && filters.from > filters.to);
  const trail = useAuditTrail(scope, rangeInvalid ? { ...filters, to: undefined } : filters);
  const download = useDownloadAuditCsv(scope);
  const events = useMemo(() => trail.data?.pages.flatMap((p) => p.events) ?? [], [trail.data]);

  const seenPeople = useMemo(() => {
    const byId = new Map<string, string>();
    for (const e of events)
      if (e.actor.kind === 'user' && e.actor.id) byId.set(e.actor.id, auditActorLabel(e.actor));
    return [...byId].map(([id, label]) => ({ id, label }));
  }, [events]);
  const personOptions = people ?? seenPeople;
  const set = (patch: AuditFilters) => setFilters((current) => ({ ...current, ...patch }));

  return (
    <Stack spacing={2}>
      <Box
        component="form"
        aria-label={T.filtersLabel}
        onSubmit={(e) => e.preventDefault()}
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', md: '2fr 2fr 1fr 1fr auto' },
          alignItems: 'start',
        }}
      >
        <TextField
          select
          label={T.filters.person}
          value={filters.actor ?? ''}
          onChange={(e) => set({ actor: e.target.value || undefined })}
          size="small"
        >
          <MenuItem value="">{T.filters.anyPerson}</MenuItem>
          {personOptions.map((p) => (
            <MenuItem key={p.id} value={p.id}>
              {p.label}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          label={T.filters.kind}
          value={filters.kind ?? ''}
          onChange={(e) => set({ kind: (e.target.value || undefined) as AuditKind | undefined })}
          size="small"
        >
          <MenuItem value="">{T.filters.anyKind}</MenuItem>
          {kinds.map((k) => (
            <MenuItem key={k} value={k}>
              {AUDIT_KIND_LABELS[k]}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          type="date"
          label={T.filters.from}
          value={filters.from ?? ''}
          onChange={(e) => set({ from: e.target.value || undefined })}
          size="small"
          slotProps={{ inputLabel: { shrink: true } }}
          error={rangeInvalid}
          helperText={rangeInvalid ? T.rangeInvalid : undefined}
        />
        <TextField
          type="date"
          label={T.filters.to}
          value={filters.to ?? ''}
          onChange={(e) => set({ to: e.target.value || undefined })}
          size="small"
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <Button
          variant="outlined"
          startIcon={<Download />}
          disabled={download.isPending || rangeInvalid}
          onClick={() =>
            download.mutate({
              filters,
              fileName: T.csvFileName(csvName, new Date().toISOString().slice(0, 10)),
            })
          }
          sx={{ whiteSpace: 'nowrap' }}
        >
          {T.downloadCsv}
        </Button>
      </Box>
      {(filters.actor || filters.kind || filters.from || filters.to) && (
        <Box>
          <Button size="small" onClick={() => setFilters({})}>
            {T.filters.clear}
          </Button>
        </Box>
      )}
      {download.isError && <Alert severity="error">{T.loadFailed}</Alert>}
      {trail.isError && <Alert severity="error">{T.loadFailed}</Alert>}
      {trail.isSuccess && events.length === 0 && (
        <Typography color="text.secondary">{T.empty}</Typography>
      )}
      {events.length > 0 &&
        (narrow ? (
          <Stack component="ul" spacing={1.5} sx={{ listStyle: 'none', p: 0, m: 0 }}>
            {events.map((e) => (
              <Paper component="li" variant="outlined" key={e.id} sx={{ p: 1.5 }}>
                <Typography variant="caption" color="text.secondary">
                  {when(e.at)}
                </Typography>
                <What event={e} />
                <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                  {T.columns.who}: {auditActorLabel(e.actor)}
                </Typography>
                <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                  {T.columns.target}: {targetOf(e)}
                </Typography>
                <Typography variant="body2">
                  {T.columns.address}: {e.ip ?? '—'}
                </Typography>
              </Paper>
            ))}
          </Stack>
        ) : (
          <TableContainer component={Paper} variant="outlined">
            <Table size="small" aria-label={T.studyTitle}>
              <TableHead>
                <TableRow>
                  <TableCell>{T.columns.when}</TableCell>
                  <TableCell>{T.columns.who}</TableCell>
                  <TableCell>{T.columns.what}</TableCell>
                  <TableCell>{T.columns.target}</TableCell>
                  <TableCell>{T.columns.address}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {events.map((e) => (
                  <TableRow key={e.id}>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{when(e.at)}</TableCell>
                    <TableCell sx={{ overflowWrap: 'anywhere' }}>
                      {auditActorLabel(e.actor)}
                    </TableCell>
                    <TableCell>
                      <What event={e} />
                    </TableCell>
                    <TableCell sx={{ overflowWrap: 'anywhere' }}>{targetOf(e)}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{e.ip ?? '—'}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        ))}
      {trail.hasNextPage && (
        <Box>
          <Button
            variant="outlined"
            onClick={() => trail.fetchNextPage()}
            disabled={trail.isFetchingNextPage}
          >
            {T.loadMore}
          </Button>
        </Box>
      )}
    </Stack>
  );
}
