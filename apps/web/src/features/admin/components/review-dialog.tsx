import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import {
  ADMIN_MESSAGES,
  ADMIN_TEXTS,
  APPLICATION_MESSAGES,
  approveApplicationSchema,
  REVIEW_NOTES_MAX,
  type ResearcherApplicationView,
  reviewApplicationSchema,
} from '@research/contracts';
import { useId, useState } from 'react';
import { useApproveApplication } from '../api/approve-application';
import { useRejectApplication } from '../api/reject-application';
import { FailureAlert, fullName, useFullScreenDialog } from './admin-ui';

export type ReviewAction = 'approve' | 'reject';

interface ReviewDialogProps {
  application: ResearcherApplicationView;
  action: ReviewAction;
  onClose: () => void;
  /** After the server accepted the decision. */
  onDone: (action: ReviewAction) => void;
}

/**
 * Approve with optional 'Approval Notes', or reject with a required 'Rejection Reason *'
 * The Reject button stays disabled while the reason is blank; a blank reason that
 * was touched shows the error text the server would answer with. Mounted per opening, so every
 * opening starts with an empty box.
 */
export function ReviewDialog({ application, action, onClose, onDone }: ReviewDialogProps) {
  const titleId = useId();
  const fullScreen = useFullScreenDialog();
  const approve = useApproveApplication();
  const reject = useRejectApplication();
  const mutation = action === 'approve' ? approve : reject;
  const [notes, setNotes] = useState('');
  const [touched, setTouched] = useState(false);
  const isReject = action === 'reject';
  const name = fullName(application);

  // The contracts' schemas are the rules: the server validates the same bodies.
  const parsed = isReject
    ? reviewApplicationSchema.safeParse({ action: 'reject', reviewNotes: notes })
    : approveApplicationSchema.safeParse({ reviewNotes: notes });
  const issue = parsed.success ? null : (parsed.error.issues[0]?.message ?? null);
  const reasonMissing = isReject && notes.trim() === '';
  const showError = issue !== null && (touched || !reasonMissing);

  // No <form>: the notes box is multi-line, so Enter belongs to it, not to submitting.
  const onSubmit = () => {
    setTouched(true);
    if (!parsed.success || mutation.isPending) return;
    const done = { onSuccess: () => onDone(action) };
    if (isReject) {
      reject.mutate({ applicationId: application.id, reviewNotes: notes }, done);
    } else {
      approve.mutate({ applicationId: application.id, reviewNotes: notes }, done);
    }
  };

  return (
    <Dialog
      open
      onClose={mutation.isPending ? undefined : onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="sm"
      fullScreen={fullScreen}
    >
      <DialogTitle id={titleId}>
        {isReject ? ADMIN_TEXTS.dialogs.rejectTitle : ADMIN_TEXTS.dialogs.approveTitle}
      </DialogTitle>
      <DialogContent>
        {mutation.isError && (
          <FailureAlert title={ADMIN_MESSAGES.processFailed} error={mutation.error} />
        )}
        <DialogContentText sx={{ mb: 2 }}>
          {isReject
            ? ADMIN_TEXTS.dialogs.rejectIntro(name)
            : ADMIN_TEXTS.dialogs.approveIntro(name)}
        </DialogContentText>
        <TextField
          autoFocus
          fullWidth
          multiline
          minRows={4}
          label={isReject ? ADMIN_TEXTS.dialogs.rejectionReason : ADMIN_TEXTS.dialogs.approvalNotes}
          value={notes}
          onChange={(event) => setNotes(event.target.value)}
          onBlur={() => setTouched(true)}
          error={showError}
          helperText={
            showError
              ? issue
              : isReject
                ? APPLICATION_MESSAGES.rejectionReasonRequired
                : ADMIN_TEXTS.dialogs.approvalHelper
          }
          slotProps={{
            htmlInput: { maxLength: REVIEW_NOTES_MAX, 'aria-required': isReject || undefined },
          }}
        />
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={mutation.isPending}>
          {ADMIN_TEXTS.actions.cancel}
        </Button>
        <Button
          onClick={onSubmit}
          variant="contained"
          color={isReject ? 'error' : 'success'}
          disabled={reasonMissing || mutation.isPending}
          startIcon={mutation.isPending ? <CircularProgress size={16} color="inherit" /> : null}
        >
          {isReject ? ADMIN_TEXTS.actions.reject : ADMIN_TEXTS.actions.approve}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
