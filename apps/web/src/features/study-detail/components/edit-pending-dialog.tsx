import Alert from '@mui/material/Alert';
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
import { type FormEvent, useState } from 'react';
import { FieldStack, FormDialog, FormDialogBody } from '../../../components/form-dialog';

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
  return (
    <FormDialog open={open} busy={busy} onClose={onClose} maxWidth="xs">
      {open && (
        <EditPendingForm
          key={participant?.id ?? 'none'}
          participant={participant}
          busy={busy}
          onSubmit={onSubmit}
        />
      )}
    </FormDialog>
  );
}

function EditPendingForm({
  participant,
  busy,
  onSubmit,
}: Omit<EditPendingDialogProps, 'open' | 'onClose'>) {
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
    <FormDialogBody
      title={STUDY_PENDING_TEXTS.editTitle}
      onSubmit={submit}
      submitLabel={STUDY_DETAIL_TEXTS.save}
      busyLabel={STUDY_DETAIL_TEXTS.saving}
      cancelLabel={STUDY_DETAIL_TEXTS.cancel}
      disabled={!participant}
    >
      {participant ? (
        <FieldStack>
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
        </FieldStack>
      ) : (
        <Alert severity="warning" role="alert">
          {PARTICIPANT_MESSAGES.noneSelected}
        </Alert>
      )}
    </FormDialogBody>
  );
}
