import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { ADMIN_TEXTS, formatDateShort, type ResearcherApplicationView } from '@research/contracts';
import { useId } from 'react';
import {
  DetailList,
  formatDateTimeShort,
  fullName,
  StatusChip,
  useFullScreenDialog,
} from './admin-ui';
import { DocumentList } from './document-list';

interface RejectedDetailsDialogProps {
  application: ResearcherApplicationView;
  onClose: () => void;
}

/** A rejected application with the reason given. */
export function RejectedDetailsDialog({ application, onClose }: RejectedDetailsDialogProps) {
  const titleId = useId();
  const fullScreen = useFullScreenDialog();
  const f = ADMIN_TEXTS.fields;
  return (
    <Dialog
      open
      onClose={onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="md"
      fullScreen={fullScreen}
    >
      <DialogTitle id={titleId}>
        {ADMIN_TEXTS.dialogs.rejectedTitle}: {fullName(application)}
      </DialogTitle>
      <DialogContent dividers>
        <DetailList
          items={[
            { label: f.email, value: application.email },
            { label: f.institution, value: application.institution },
            { label: f.dateOfBirth, value: formatDateShort(application.dateOfBirth) },
            { label: f.status, value: <StatusChip status={application.status} /> },
            { label: f.submitted, value: formatDateTimeShort(application.submittedAt) },
            { label: f.rejected, value: formatDateTimeShort(application.reviewedAt) },
            {
              label: f.description,
              value: application.description?.trim() || ADMIN_TEXTS.noDescription,
              wide: true,
            },
            { label: f.reviewNotes, value: application.reviewNotes ?? '', wide: true },
          ]}
        />
        <Box sx={{ mt: 3 }}>
          <Typography variant="subtitle1" component="h3" gutterBottom>
            {ADMIN_TEXTS.dialogs.documents}
          </Typography>
          <DocumentList
            applicationId={application.id}
            documents={application.verificationDocuments}
          />
        </Box>
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2 }}>
        <Button onClick={onClose}>{ADMIN_TEXTS.actions.close}</Button>
      </DialogActions>
    </Dialog>
  );
}
