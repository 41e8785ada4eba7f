import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { STUDY_DETAIL_TEXTS } from '@research/contracts';
import type { ReactNode } from 'react';
import { messageOf } from './notify';

/** A tab's empty state: the spec's title, a line of help and an optional action. */
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
      <Typography variant="h6" component="h3" gutterBottom>
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

/** A tab whose list failed to load: the server's message (or the spec's) and a Retry button. */
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
