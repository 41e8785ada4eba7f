import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import type { ReactNode } from 'react';

/** The outlined card both application screens sit in, centred on the brand wash. */
export function PageCard({ children, maxWidth }: { children: ReactNode; maxWidth: number }) {
  return (
    <Box
      component="section"
      sx={{
        display: 'flex',
        justifyContent: 'center',
        px: { xs: 1.5, sm: 3 },
        py: { xs: 3, md: 6 },
        background:
          'radial-gradient(900px 360px at 0% -10%, rgba(140, 21, 21, 0.06), transparent 60%),' +
          'radial-gradient(700px 300px at 100% 0%, rgba(0, 80, 92, 0.06), transparent 60%)',
      }}
    >
      <Paper variant="outlined" sx={{ width: '100%', maxWidth, p: { xs: 2.5, sm: 4, md: 5 } }}>
        {children}
      </Paper>
    </Box>
  );
}
