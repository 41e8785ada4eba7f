import Paper from '@mui/material/Paper';
import type { ReactNode } from 'react';
import { WashSection } from '../../../components/wash-section';

/** The outlined card both application screens sit in, centred on the brand wash. */
export function PageCard({ children, maxWidth }: { children: ReactNode; maxWidth: number }) {
  return (
    <WashSection py={{ xs: 3, md: 6 }}>
      <Paper variant="outlined" sx={{ width: '100%', maxWidth, p: { xs: 2.5, sm: 4, md: 5 } }}>
        {children}
      </Paper>
    </WashSection>
  );
}
