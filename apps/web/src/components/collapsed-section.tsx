import ExpandMore from '@mui/icons-material/ExpandMore';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Typography from '@mui/material/Typography';
import { type ReactNode, useId } from 'react';

export interface CollapsedSectionProps {
  title: string;
  children: ReactNode;
}

/**
 * A section that starts closed, under an h2 that opens it. Its content mounts only while open,
 * so what it would load and poll waits until someone opens it.
 */
export function CollapsedSection({ title, children }: CollapsedSectionProps) {
  const id = useId();
  return (
    <Accordion
      variant="outlined"
      disableGutters
      slotProps={{ heading: { component: 'h2' }, transition: { unmountOnExit: true } }}
    >
      <AccordionSummary expandIcon={<ExpandMore />} id={`${id}-title`} aria-controls={`${id}-body`}>
        <Typography variant="h6" component="span">
          {title}
        </Typography>
      </AccordionSummary>
      <AccordionDetails id={`${id}-body`} sx={{ p: { xs: 1, sm: 2 } }}>
        {children}
      </AccordionDetails>
    </Accordion>
  );
}
