import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { ADMIN_MESSAGES, ADMIN_TEXTS, type ResearcherApplicationView } from '@research/contracts';
import { useId } from 'react';
import { useResetApplication } from '../api/reset-application';
import { FailureAlert, fullName } from './admin-ui';

interface ResetDialogProps {
  application: ResearcherApplicationView;
  onClose: () => void;
  /** After the server reset the application. */
  onDone: () => void;
}

/**
 * Asks before a rejected application is reset for resubmission: the row leaves the rejected list
 * and its owner is e-mailed, so one stray click must not do it.
 */
export function ResetDialog({ application, onClose, onDone }: ResetDialogProps) {
  const titleId = useId();
  const reset = useResetApplication();
  const confirm = () => {
    if (!reset.isPending) reset.mutate(application.id, { onSuccess: onDone });
  };
  return (
    <Dialog
      open
      role="alertdialog"
      onClose={reset.isPending ? undefined : onClose}
      aria-labelledby={titleId}
      maxWidth="xs"
      fullWidth
    >
      <DialogTitle id={titleId}>{ADMIN_TEXTS.dialogs.resetTitle}</DialogTitle>
      <DialogContent>
        {reset.isError && <FailureAlert title={ADMIN_MESSAGES.resetFailed} error={reset.error} />}
        <DialogContentText>
          {ADMIN_TEXTS.dialogs.resetIntro(fullName(application))}
        </DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={reset.isPending}>
          {ADMIN_TEXTS.actions.cancel}
        </Button>
        <Button
          onClick={confirm}
          variant="contained"
          color="secondary"
          disabled={reset.isPending}
          startIcon={reset.isPending ? <CircularProgress size={16} color="inherit" /> : null}
        >
          {ADMIN_TEXTS.actions.resetConfirm}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
