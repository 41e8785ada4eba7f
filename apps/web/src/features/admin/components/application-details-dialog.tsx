import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import { ADMIN_TEXTS, formatDateShort, type ResearcherApplicationView } from '@research/contracts';
import { DetailList, formatDateTimeShort, fullName } from './admin-ui';
import { DetailsDialog, DocumentsSection, descriptionItem } from './details-dialog';
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
  const f = ADMIN_TEXTS.fields;
  return (
    <DetailsDialog
      title={ADMIN_TEXTS.dialogs.detailsTitle}
      onClose={onClose}
      actions={
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
      }
    >
      <DetailList
        items={[
          { label: f.name, value: fullName(application) },
          { label: f.email, value: application.email },
          { label: f.dateOfBirth, value: formatDateShort(application.dateOfBirth) },
          { label: f.institution, value: application.institution },
          descriptionItem(application),
          { label: f.submitted, value: formatDateTimeShort(application.submittedAt) },
        ]}
      />
      <DocumentsSection application={application} downloadable />
    </DetailsDialog>
  );
}
