import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { ADMIN_TEXTS, formatDateShort, type ResearcherApplicationView } from '@research/contracts';
import { useId } from 'react';
import { DetailList, formatDateTimeShort, fullName, useFullScreenDialog } from './admin-ui';
import { DocumentList } from './document-list';
import type { ReviewAction } from './review-dialog';

interface ApplicationDetailsDialogProps {
  application: ResearcherApplicationView;
  onClose: () => void;
  onReview: (action: ReviewAction) => void;
}

/** A pending application in full, with its documents to download. */
export function ApplicationDetailsDialog({
  application,
  onClose,
  onReview,
}: ApplicationDetailsDialogProps) {
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
      <DialogTitle id={titleId}>{ADMIN_TEXTS.dialogs.detailsTitle}</DialogTitle>
      <DialogContent dividers>
        <DetailList
          items={[
            { label: f.name, value: fullName(application) },
            { label: f.email, value: application.email },
            { label: f.dateOfBirth, value: formatDateShort(application.dateOfBirth) },
            { label: f.institution, value: application.institution },
            {
              label: f.description,
              value: application.description?.trim() || ADMIN_TEXTS.noDescription,
              wide: true,
            },
            { label: f.submitted, value: formatDateTimeShort(application.submittedAt) },
          ]}
        />
        <Box sx={{ mt: 3 }}>
          <Typography variant="subtitle1" component="h3" gutterBottom>
            {ADMIN_TEXTS.dialogs.documents}
          </Typography>
          <DocumentList
            applicationId={application.id}
            documents={application.verificationDocuments}
            downloadable
          />
        </Box>
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2, flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={onClose}>{ADMIN_TEXTS.actions.close}</Button>
        <Box sx={{ flex: 1 }} />
        <Button variant="outlined" color="error" onClick={() => onReview('reject')}>
          {ADMIN_TEXTS.actions.reject}
        </Button>
        <Button variant="contained" color="success" onClick={() => onReview('approve')}>
          {ADMIN_TEXTS.actions.approve}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
