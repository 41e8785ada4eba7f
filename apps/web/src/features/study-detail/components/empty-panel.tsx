import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { STUDY_DETAIL_TEXTS } from '@research/contracts';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { LoadingIndicator } from '../../../components/loading-indicator';
import { messageOf } from './notify';
import type { ListState } from './server-table';

/** A tab's empty state: the product's title, a line of help and an optional action. */
export function EmptyPanel({
  title,
  body,
  action,
}: {
  title: string;
  body?: string;
  action?: ReactNode;
}) {
  return (
    <Box sx={{ textAlign: 'center', py: { xs: 5, sm: 7 }, px: 2 }}>
      <Typography variant="h6" component="h2" gutterBottom>
        {title}
      </Typography>
      {body && (
        <Typography color="text.secondary" sx={{ mb: action ? 2 : 0 }}>
          {body}
        </Typography>
      )}
      {action}
    </Box>
  );
}

/** A tab whose list failed to load: the server's message (or the product's) and a Retry button. */
export function LoadFailedPanel({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <Box sx={{ p: 2 }}>
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={onRetry}>
            {STUDY_DETAIL_TEXTS.retry}
          </Button>
        }
      >
        {messageOf(error, STUDY_DETAIL_TEXTS.loadFailed)}
      </Alert>
    </Box>
  );
}

export interface ListTabGateProps<T extends { totalCount: number }> {
  query: UseQueryResult<T>;
  list: Pick<ListState<string>, 'query' | 'searchInput'>;
  /** Shown when the study has no rows at all (not when a search matched none). */
  empty: ReactNode;
  children: (data: T) => ReactNode;
}

/**
 * A paged tab's list once it has rows: a spinner while the first page loads, the failure with
 * Retry, the empty state for a study with no rows yet, else the children with the page.
 */
export function ListTabGate<T extends { totalCount: number }>({
  query,
  list,
  empty,
  children,
}: ListTabGateProps<T>) {
  if (query.isPending) return <LoadingIndicator />;
  // Settled without data: the first page failed (a failed refresh keeps the page on screen).
  const { data } = query;
  if (!data) return <LoadFailedPanel error={query.error} onRetry={() => query.refetch()} />;
  if (data.totalCount === 0 && list.query.search === '' && list.searchInput === '') return empty;
  return children(data);
}
