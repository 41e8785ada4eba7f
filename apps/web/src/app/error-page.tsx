import ErrorOutline from '@mui/icons-material/ErrorOutline';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { ROUTER_MESSAGES, UNKNOWN_ERROR } from '@research/contracts';
import { isRouteErrorResponse, useRouteError } from 'react-router';

/** The router's error element: the title is the product's. */
export function ErrorPage() {
  const error = useRouteError();
  return (
    <Box
      component="section"
      sx={{ display: 'flex', justifyContent: 'center', px: 2, py: { xs: 6, md: 10 } }}
    >
      <Paper variant="outlined" sx={{ p: { xs: 3, sm: 5 }, maxWidth: 560, width: '100%' }}>
        <ErrorOutline color="primary" sx={{ fontSize: 48, mb: 1 }} aria-hidden="true" />
        <Typography variant="h5" component="h1" gutterBottom>
          {ROUTER_MESSAGES.unexpectedError}
        </Typography>
        <Typography
          component="p"
          color="text.secondary"
          sx={{ mb: 3, overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}
        >
          {describeError(error)}
        </Typography>
        {/* A full page load, not a client navigation: after a failed chunk or a broken state the
            app should start over from fresh code. */}
        <Button variant="contained" href="/">
          {ROUTER_MESSAGES.goHome}
        </Button>
      </Paper>
    </Box>
  );
}

function describeError(error: unknown): string {
  if (isRouteErrorResponse(error)) {
    return `${error.status} ${error.statusText}`.trim();
  }
  if (error instanceof Error) {
    return error.message;
  }
  if (typeof error === 'string') {
    return error;
  }
  return UNKNOWN_ERROR;
}
