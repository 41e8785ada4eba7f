import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { CONSENT_STEP_TEXTS as T } from '@research/contracts';
import { useState } from 'react';
import { type SessionHeaders, withdrawFromStudy } from '../../lib/consent/consent-api';

/** The participant's withdrawal from their link page, after a confirmation. */
export function WithdrawButton({
  headers,
  onWithdrawn,
}: {
  headers: () => SessionHeaders;
  onWithdrawn: () => void;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      await withdrawFromStudy(headers());
      setOpen(false);
      onWithdrawn();
    } catch (cause) {
      setError(cause instanceof Error && cause.message.trim() ? cause.message : T.withdrawBody);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <Button color="error" size="large" onClick={() => setOpen(true)}>
        {T.withdraw}
      </Button>
      <Dialog open={open} onClose={() => !busy && setOpen(false)} aria-labelledby="withdraw-title">
        <DialogTitle id="withdraw-title">{T.withdrawTitle}</DialogTitle>
        <DialogContent>
          <DialogContentText>{T.withdrawBody}</DialogContentText>
          {error && (
            <Alert severity="error" sx={{ mt: 2 }}>
              {error}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)} disabled={busy}>
            {T.cancel}
          </Button>
          <Button color="error" variant="contained" onClick={() => void confirm()} disabled={busy}>
            {T.withdrawConfirm}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
