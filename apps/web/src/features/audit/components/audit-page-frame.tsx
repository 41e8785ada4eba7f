import ArrowBack from '@mui/icons-material/ArrowBack';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';

/** A trail page: the way back, its title and what it holds, then the trail. */
export function AuditPageFrame(props: {
  back: { to: string; label: string };
  title: string;
  intro: string;
  children: ReactNode;
}) {
  return (
    <Box
      component="section"
      sx={{ maxWidth: 'lg', mx: 'auto', px: { xs: 2, sm: 3 }, py: { xs: 3, md: 5 } }}
    >
      <Button
        component={RouterLink}
        to={props.back.to}
        startIcon={<ArrowBack />}
        sx={{ mb: 2, ml: -1 }}
      >
        {props.back.label}
      </Button>
      <Typography
        variant="h4"
        component="h1"
        gutterBottom
        sx={{ fontSize: { xs: '1.5rem', md: '2rem' } }}
      >
        {props.title}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {props.intro}
      </Typography>
      {props.children}
    </Box>
  );
}
