import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { PLACEHOLDER_TEXTS } from '@research/contracts';

export interface LoadingIndicatorProps {
  message?: string;
  /** Covers the whole viewport, e.g. while authenticating. */
  fullScreen?: boolean;
  size?: number;
}

export function LoadingIndicator({
  message = PLACEHOLDER_TEXTS.loading,
  fullScreen = false,
  size = 40,
}: LoadingIndicatorProps) {
  return (
    <Box
      role="status"
      aria-live="polite"
      sx={{
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 2,
        py: fullScreen ? 0 : 8,
        px: 2,
        ...(fullScreen && {
          position: 'fixed',
          inset: 0,
          zIndex: (theme) => theme.zIndex.modal + 1,
          bgcolor: 'background.default',
        }),
      }}
    >
      <CircularProgress size={size} aria-label={message} />
      {message && (
        <Typography variant="body1" color="text.secondary">
          {message}
        </Typography>
      )}
    </Box>
  );
}
