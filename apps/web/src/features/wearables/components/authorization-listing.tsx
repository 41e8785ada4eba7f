import Refresh from '@mui/icons-material/Refresh';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import { useTheme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import {
  missingReadScopes,
  NOTIFICATION_TITLES,
  scopeLabel,
  WEARABLE_LISTING_TEXTS as T,
  type WearableAuthorizationRow,
} from '@research/contracts';
import { type ReactNode, useState } from 'react';
import { useWearableAuthorizations } from '../api/get-wearable-authorizations';
import { useRefreshToken } from '../api/refresh-token';

type NotifyType = 'success' | 'error' | 'warning' | 'info';

export interface AuthorizationListingProps {
  studyId: string;
  notify: (type: NotifyType, title: string, message: string) => void;
}

const PAGE_SIZES = [10, 25, 50];

function statusChip(row: WearableAuthorizationRow) {
  if (row.status === 'active') {
    // Display status: a grant past its stored expiry no longer works, though no call has failed
    // yet.
    const expired = row.tokenExpiresAt !== null && Date.parse(row.tokenExpiresAt) <= Date.now();
    return expired ? (
      <Chip size="small" color="warning" label={T.expired} />
    ) : (
      <Chip size="small" color="success" label={T.authorized} />
    );
  }
  if (row.status === 'needs_reauthorization')
    return <Chip size="small" color="warning" label={T.needsReauthorization} />;
  if (row.status === 'revoked') return <Chip size="small" label={T.revoked} />;
  return <Chip size="small" variant="outlined" label={T.notAuthorized} />;
}

/** Granted scopes, then those the participant left unticked on Google's page. */
function scopeChips(row: WearableAuthorizationRow) {
  if (row.grantedScopes.length === 0) return '—';
  const missing = missingReadScopes(row.grantedScopes);
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, alignItems: 'center' }}>
      {row.grantedScopes.map((scope) => (
        <Chip key={scope} size="small" variant="outlined" label={scopeLabel(scope)} title={scope} />
      ))}
      {missing.length > 0 && (
        <>
          <Typography variant="caption" color="warning.main" sx={{ fontWeight: 600, ml: 0.5 }}>
            {T.notShared}
          </Typography>
          {missing.map((scope) => (
            <Chip
              key={scope}
              size="small"
              color="warning"
              variant="outlined"
              label={scopeLabel(scope)}
              title={scope}
            />
          ))}
        </>
      )}
    </Box>
  );
}

/** The connection's id; a participant without one has none yet. */
const shortId = (row: WearableAuthorizationRow) =>
  row.id === row.participantId ? '—' : row.id.slice(0, 8);

const mono = { fontFamily: 'monospace', fontSize: 12 } as const;

/** One labelled fact of a row, for the phone layout. */
function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: '7.5rem 1fr', gap: 1, alignItems: 'start' }}>
      <Typography component="dt" variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Box component="dd" sx={{ m: 0, minWidth: 0, overflowWrap: 'anywhere' }}>
        {children}
      </Box>
    </Box>
  );
}

/**
 * Tab 4's wearable authorization listing: one row per participant with what the
 * server knows about the connection — never a token, only whether one exists.
 */
export function AuthorizationListing({ studyId, notify }: AuthorizationListingProps) {
  const [page, setPage] = useState(0);
  const [rowsPerPage, setRowsPerPage] = useState(10);
  const query = useWearableAuthorizations(studyId, {
    limit: rowsPerPage,
    offset: page * rowsPerPage,
  });
  const refresh = useRefreshToken(studyId);
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('md'));

  const onRefresh = async (row: WearableAuthorizationRow) => {
    try {
      const result = await refresh.mutateAsync(row.participantId);
      notify('success', T.refreshedTitle, result.message);
    } catch (error) {
      notify(
        'error',
        T.refreshFailedTitle,
        error instanceof Error && error.message ? error.message : T.refreshFailedTitle,
      );
    }
  };

  const rows = query.data?.authorizations ?? [];
  const c = T.columns;
  const refreshButton = (row: WearableAuthorizationRow) => (
    <Tooltip title={T.refresh}>
      <span>
        <IconButton
          aria-label={`${T.refresh} ${row.participantId}`}
          onClick={() => void onRefresh(row)}
          disabled={!row.hasTokens || refresh.isPending}
        >
          <Refresh />
        </IconButton>
      </span>
    </Tooltip>
  );
  return (
    <Card variant="outlined" component="section" aria-labelledby="wearable-authorizations-title">
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        <Typography id="wearable-authorizations-title" variant="h6" component="h2">
          {T.title}
        </Typography>
        <Alert severity="info">{T.providerNote}</Alert>
        {query.isError && (
          <Alert severity="error">
            {query.error instanceof Error
              ? query.error.message
              : NOTIFICATION_TITLES.authenticationError}
          </Alert>
        )}
        {query.isPending ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 3 }}>
            <CircularProgress aria-label={T.title} />
          </Box>
        ) : rows.length === 0 ? (
          <Typography color="text.secondary">{T.empty}</Typography>
        ) : narrow ? (
          // Phones: one card per participant instead of a nine-column table.
          <Box component="ul" aria-label={T.title} sx={{ listStyle: 'none', m: 0, p: 0 }}>
            {rows.map((row) => (
              <Box
                component="li"
                key={row.participantId}
                data-participant-id={row.participantId}
                sx={{ py: 1.5, borderTop: 1, borderColor: 'divider' }}
              >
                <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                  <Typography sx={{ fontWeight: 600, flex: 1, minWidth: 0 }}>
                    {row.name || '—'}
                  </Typography>
                  {statusChip(row)}
                  {refreshButton(row)}
                </Box>
                <Box component="dl" sx={{ m: 0, display: 'grid', gap: 0.5 }}>
                  <Fact label={c.participantId}>
                    <Box component="span" sx={mono}>
                      {row.participantId}
                    </Box>
                  </Fact>
                  <Fact label={c.id}>
                    <Box component="span" sx={mono} title={row.id}>
                      {shortId(row)}
                    </Box>
                  </Fact>
                  <Fact label={c.email}>{row.email}</Fact>
                  <Fact label={c.tokens}>{row.hasTokens ? T.yes : T.no}</Fact>
                  <Fact label={c.wearableUserId}>
                    <Box component="span" sx={mono}>
                      {row.wearableUserId ?? '—'}
                    </Box>
                  </Fact>
                  <Fact label={c.scopes}>{scopeChips(row)}</Fact>
                </Box>
              </Box>
            ))}
          </Box>
        ) : (
          <TableContainer>
            <Table size="small" aria-label={T.title} sx={{ '& td, & th': { px: 1 } }}>
              <TableHead>
                <TableRow>
                  <TableCell>{c.id}</TableCell>
                  <TableCell>{c.participantId}</TableCell>
                  <TableCell>{c.name}</TableCell>
                  <TableCell>{c.email}</TableCell>
                  <TableCell>{c.authorizationStatus}</TableCell>
                  <TableCell>{c.tokens}</TableCell>
                  <TableCell>{c.wearableUserId}</TableCell>
                  <TableCell>{c.scopes}</TableCell>
                  <TableCell align="right">{c.actions}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((row) => (
                  <TableRow key={row.participantId} data-participant-id={row.participantId}>
                    <TableCell sx={mono} title={row.id}>
                      {shortId(row)}
                    </TableCell>
                    <TableCell sx={{ fontFamily: 'monospace', fontSize: 12 }}>
                      {row.participantId}
                    </TableCell>
                    <TableCell>{row.name || '—'}</TableCell>
                    <TableCell sx={{ overflowWrap: 'anywhere', minWidth: 140 }}>
                      {row.email}
                    </TableCell>
                    <TableCell>{statusChip(row)}</TableCell>
                    <TableCell>{row.hasTokens ? T.yes : T.no}</TableCell>
                    <TableCell sx={{ fontFamily: 'monospace', fontSize: 12 }}>
                      {row.wearableUserId ?? '—'}
                    </TableCell>
                    <TableCell sx={{ minWidth: 170 }}>{scopeChips(row)}</TableCell>
                    <TableCell align="right">{refreshButton(row)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
        {(query.data?.totalCount ?? 0) > (PAGE_SIZES[0] ?? 10) && (
          <TablePagination
            component="div"
            count={query.data?.totalCount ?? 0}
            page={page}
            rowsPerPage={rowsPerPage}
            rowsPerPageOptions={PAGE_SIZES}
            onPageChange={(_e, next) => setPage(next)}
            onRowsPerPageChange={(e) => {
              setRowsPerPage(Number(e.target.value));
              setPage(0);
            }}
          />
        )}
      </CardContent>
    </Card>
  );
}
