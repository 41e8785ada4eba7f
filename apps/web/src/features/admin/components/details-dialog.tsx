import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { ADMIN_TEXTS, type ResearcherApplicationView } from '@research/contracts';
import { type ReactNode, useId } from 'react';
import { type DetailItem, useFullScreenDialog } from './admin-ui';
import { DocumentList } from './document-list';

export interface DetailsDialogProps {
  title: ReactNode;
  onClose: () => void;
  /** The buttons at the bottom; Close alone when not given. */
  actions?: ReactNode;
  children: ReactNode;
}

/** The master's read-only view of one application or researcher; full screen on a phone. */
export function DetailsDialog({ title, onClose, actions, children }: DetailsDialogProps) {
  const titleId = useId();
  const fullScreen = useFullScreenDialog();
  return (
    <Dialog
      open
      onClose={onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="md"
      fullScreen={fullScreen}
    >
      <DialogTitle id={titleId}>{title}</DialogTitle>
      {/* Text only, and taller than a phone: the keyboard scrolls it once it has the focus. */}
      <DialogContent dividers tabIndex={0} role="region" aria-labelledby={titleId}>
        {children}
      </DialogContent>
      {actions ?? (
        <DialogActions sx={{ px: 3, py: 2 }}>
          <Button onClick={onClose}>{ADMIN_TEXTS.actions.close}</Button>
        </DialogActions>
      )}
    </Dialog>
  );
}

/** The applicant's description over the whole row, or the 'no description' text. */
export function descriptionItem(application: { description?: string | null }): DetailItem {
  return {
    label: ADMIN_TEXTS.fields.description,
    value: application.description?.trim() || ADMIN_TEXTS.noDescription,
    wide: true,
  };
}

/** The application's documents under their heading; downloadable while it is reviewed. */
export function DocumentsSection({
  application,
  downloadable = false,
}: {
  application: ResearcherApplicationView;
  downloadable?: boolean;
}) {
  return (
    <Box sx={{ mt: 3 }}>
      <Typography variant="subtitle1" component="h3" gutterBottom>
        {ADMIN_TEXTS.dialogs.documents}
      </Typography>
      <DocumentList
        applicationId={application.id}
        documents={application.verificationDocuments}
        downloadable={downloadable}
      />
    </Box>
  );
}
