import Snackbar from '@mui/material/Snackbar';
import { STUDY_MESSAGES } from '@research/contracts';

/** The short 'copied' note after a study code went to the clipboard. */
export function CopiedSnackbar({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Snackbar
      open={open}
      autoHideDuration={2500}
      onClose={onClose}
      message={STUDY_MESSAGES.codeCopied}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
    />
  );
}
