import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  displayPhone,
  formatPhoneInput,
  INVITE_DIALOG_TEXTS,
  isValidOptionalPhone,
  PARTICIPANT_LIST_MESSAGES,
  PARTICIPANT_MESSAGES,
  type PendingParticipant,
  STUDY_DETAIL_TEXTS,
  STUDY_PENDING_TEXTS,
} from '@research/contracts';
import { type FormEvent, useId, useState } from 'react';
import { CancelAndSubmit } from '../../../components/cancel-and-submit';

export interface EditPendingDialogProps {
  open: boolean;
  /** null: nothing selected, which the dialog says instead of saving. */
  participant: PendingParticipant | null;
  busy: boolean;
  onClose: () => void;
  onSubmit: (participant: PendingParticipant | null, phone: string) => void;
}

/** 'Edit Pending Participant': phone optional, formatted as typed. */
export function EditPendingDialog({
  open,
  participant,
  busy,
  onClose,
  onSubmit,
}: EditPendingDialogProps) {
  const titleId = useId();
  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      aria-labelledby={titleId}
      maxWidth="xs"
      fullWidth
    >
      {open && (
        <EditPendingForm
          key={participant?.id ?? 'none'}
          titleId={titleId}
          participant={participant}
          busy={busy}
          onClose={onClose}
          onSubmit={onSubmit}
        />
      )}
    </Dialog>
  );
}

function EditPendingForm({
  titleId,
  participant,
  busy,
  onClose,
  onSubmit,
}: Omit<EditPendingDialogProps, 'open'> & { titleId: string }) {
  const [phone, setPhone] = useState(() => displayPhone(participant?.phoneNumber));
  const [touched, setTouched] = useState(false);
  const phoneBad = !isValidOptionalPhone(phone);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!participant || phoneBad || busy) return;
    onSubmit(participant, phone);
  };

  return (
    <Box component="form" noValidate onSubmit={submit}>
      <DialogTitle id={titleId}>{STUDY_PENDING_TEXTS.editTitle}</DialogTitle>
      <DialogContent>
        {participant ? (
          <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: 1 }}>
            <Typography sx={{ overflowWrap: 'anywhere' }}>{participant.email}</Typography>
            <TextField
              label={STUDY_PENDING_TEXTS.phone}
              placeholder={INVITE_DIALOG_TEXTS.phonePlaceholder}
              value={phone}
              onChange={(event) => setPhone(formatPhoneInput(event.target.value))}
              error={touched && phoneBad}
              helperText={
                touched && phoneBad
                  ? PARTICIPANT_LIST_MESSAGES.invalidPhone
                  : STUDY_PENDING_TEXTS.phoneHelper
              }
              disabled={busy}
              autoFocus
              fullWidth
              slotProps={{ htmlInput: { inputMode: 'tel' } }}
            />
          </Box>
        ) : (
          <Alert severity="warning" role="alert">
            {PARTICIPANT_MESSAGES.noneSelected}
          </Alert>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <CancelAndSubmit
          busy={busy}
          onClose={onClose}
          label={STUDY_DETAIL_TEXTS.save}
          busyLabel={STUDY_DETAIL_TEXTS.saving}
          cancelLabel={STUDY_DETAIL_TEXTS.cancel}
          disabled={!participant}
        />
      </DialogActions>
    </Box>
  );
}
