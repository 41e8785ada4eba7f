import Refresh from '@mui/icons-material/Refresh';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import {
  missingReadScopes,
  NOTIFICATION_TITLES,
  scopeLabel,
  WEARABLE_LISTING_TEXTS as T,
  type WearableAuthorizationRow,
} from '@research/contracts';
import { useState } from 'react';
import { ResponsiveTable } from '../../../components/responsive-table';
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
        ) : (
          <ResponsiveTable
            label={T.title}
            rows={rows}
            rowKey={(row) => row.participantId}
            rowAttributes={(row) => ({ 'data-participant-id': row.participantId })}
            // Nine columns do not fit a tablet either: cards up to the medium breakpoint.
            cardsBelow="md"
            dense
            columns={[
              {
                label: c.id,
                render: (row) => <span title={row.id}>{shortId(row)}</span>,
                cellSx: mono,
              },
              { label: c.participantId, render: (row) => row.participantId, cellSx: mono },
              { label: c.name, card: 'title', render: (row) => row.name || '—' },
              {
                label: c.email,
                render: (row) => row.email,
                cellSx: { overflowWrap: 'anywhere', minWidth: 140 },
              },
              { label: c.authorizationStatus, card: 'badge', render: statusChip },
              { label: c.tokens, render: (row) => (row.hasTokens ? T.yes : T.no) },
              {
                label: c.wearableUserId,
                render: (row) => row.wearableUserId ?? '—',
                cellSx: mono,
              },
              { label: c.scopes, render: scopeChips, cellSx: { minWidth: 170 } },
              { label: c.actions, align: 'right', card: 'actions', render: refreshButton },
            ]}
            pagination={
              (query.data?.totalCount ?? 0) > (PAGE_SIZES[0] ?? 10)
                ? {
                    count: query.data?.totalCount ?? 0,
                    page,
                    rowsPerPage,
                    rowsPerPageOptions: PAGE_SIZES,
                    onPageChange: setPage,
                    onRowsPerPageChange: (next) => {
                      setRowsPerPage(next);
                      setPage(0);
                    },
                  }
                : undefined
            }
          />
        )}
      </CardContent>
    </Card>
  );
}
