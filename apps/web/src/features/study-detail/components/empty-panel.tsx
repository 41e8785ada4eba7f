import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

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
