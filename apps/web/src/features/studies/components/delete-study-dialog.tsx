import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { Study } from '@research/contracts';
import { DELETE_STUDY_TEXTS, STUDY_DASHBOARD_TEXTS } from '@research/contracts';
import { useId } from 'react';

interface DeleteStudyDialogProps {
  study: Study | null;
  busy: boolean;
  onClose: () => void;
  onConfirm: (study: Study) => void;
}

/** The confirmation before 'Delete Study' is sent. */
export function DeleteStudyDialog({ study, busy, onClose, onConfirm }: DeleteStudyDialogProps) {
  const titleId = useId();
  const bodyId = useId();
  return (
    <Dialog
      open={study !== null}
      onClose={busy ? undefined : onClose}
      role="alertdialog"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      maxWidth="xs"
      fullWidth
    >
      <DialogTitle id={titleId}>{DELETE_STUDY_TEXTS.confirmTitle}</DialogTitle>
      <DialogContent>
        <DialogContentText id={bodyId}>
          {study ? DELETE_STUDY_TEXTS.confirmBody(study.name) : null}
        </DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={busy} autoFocus>
          {STUDY_DASHBOARD_TEXTS.cancel}
        </Button>
        <Button
          color="error"
          variant="contained"
          disabled={busy}
          onClick={() => study && onConfirm(study)}
          startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined}
        >
          {DELETE_STUDY_TEXTS.confirm}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
