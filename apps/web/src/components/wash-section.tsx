import Box from '@mui/material/Box';
import type { ReactNode } from 'react';

/** A page's centred section on the brand wash (two soft radial tints), e.g. a card of a form. */
export function WashSection({
  py,
  children,
}: {
  /** Vertical padding, by breakpoint. */
  py: { xs: number; md: number };
  children: ReactNode;
}) {
  return (
    <Box
      component="section"
      sx={{
        display: 'flex',
        justifyContent: 'center',
        px: { xs: 1.5, sm: 3 },
        py,
        background:
          'radial-gradient(900px 360px at 0% -10%, rgba(140, 21, 21, 0.06), transparent 60%),' +
          'radial-gradient(700px 300px at 100% 0%, rgba(0, 80, 92, 0.06), transparent 60%)',
      }}
    >
      {children}
    </Box>
  );
}
