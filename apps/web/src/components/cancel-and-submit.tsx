import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { STUDY_DASHBOARD_TEXTS } from '@research/contracts';

export interface CancelAndSubmitProps {
  busy: boolean;
  onClose: () => void;
  label: string;
  /** The product's busy text ('Updating...', 'Changing...', 'Joining...', the 30-second wait). */
  busyLabel: string;
  disabled?: boolean;
  /** The dialog's own Cancel text, where its screen has one. */
  cancelLabel?: string;
}

/** The end of every study dialog: Cancel, and a submit button that shows its busy text. */
export function CancelAndSubmit({
  busy,
  onClose,
  label,
  busyLabel,
  disabled = false,
  cancelLabel = STUDY_DASHBOARD_TEXTS.cancel,
}: CancelAndSubmitProps) {
  return (
    <>
      <Button onClick={onClose} disabled={busy}>
        {cancelLabel}
      </Button>
      <Button
        type="submit"
        variant="contained"
        disabled={busy || disabled}
        startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined}
      >
        {busy ? busyLabel : label}
      </Button>
    </>
  );
}
