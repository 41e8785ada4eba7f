import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

interface PlaceholderPanelProps {
  title: string;
  children: ReactNode;
}

/** A screen whose full version comes with a later issue: its heading and one line. */
export function PlaceholderPanel({ title, children }: PlaceholderPanelProps) {
  return (
    <Box
      component="section"
      sx={{ maxWidth: 'md', mx: 'auto', px: { xs: 2, sm: 3 }, py: { xs: 5, md: 8 } }}
    >
      <Paper variant="outlined" sx={{ p: { xs: 3, sm: 5 } }}>
        <Typography
          variant="h4"
          component="h1"
          gutterBottom
          sx={{ fontSize: { xs: '1.6rem', md: '2.125rem' } }}
        >
          {title}
        </Typography>
        <Typography color="text.secondary">{children}</Typography>
      </Paper>
    </Box>
  );
}
