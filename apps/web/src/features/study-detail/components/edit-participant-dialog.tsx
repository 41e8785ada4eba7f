import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import {
  isValidEmail,
  NAME_MAX_LENGTH,
  PARTICIPANT_LIST_MESSAGES,
  PARTICIPANT_MESSAGES,
  type ParticipantRow,
  STUDY_DETAIL_TEXTS,
  STUDY_PARTICIPANT_TEXTS,
} from '@research/contracts';
import { type FormEvent, useId, useState } from 'react';
import { CancelAndSubmit } from '../../../components/cancel-and-submit';

export interface EditParticipantValues {
  firstName: string;
  lastName: string;
  participantEmail: string;
}

export interface EditParticipantDialogProps {
  participant: ParticipantRow | null;
  busy: boolean;
  onClose: () => void;
  onSubmit: (participant: ParticipantRow, values: EditParticipantValues) => void;
}

/** 'Edit Participant': first and last name required, e-mail checked; trimmed. */
export function EditParticipantDialog({
  participant,
  busy,
  onClose,
  onSubmit,
}: EditParticipantDialogProps) {
  const titleId = useId();
  return (
    <Dialog
      open={participant !== null}
      onClose={busy ? undefined : onClose}
      aria-labelledby={titleId}
      maxWidth="sm"
      fullWidth
    >
      {participant && (
        <EditForm
          key={participant.id}
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

function EditForm({
  titleId,
  participant,
  busy,
  onClose,
  onSubmit,
}: Omit<EditParticipantDialogProps, 'participant'> & {
  titleId: string;
  participant: ParticipantRow;
}) {
  const [values, setValues] = useState<EditParticipantValues>({
    firstName: participant.firstName ?? '',
    lastName: participant.lastName ?? '',
    participantEmail: participant.participantEmail,
  });
  const [touched, setTouched] = useState(false);
  const namesMissing = !values.firstName.trim() || !values.lastName.trim();
  const firstTooLong = values.firstName.trim().length > NAME_MAX_LENGTH;
  const lastTooLong = values.lastName.trim().length > NAME_MAX_LENGTH;
  const emailBad = !isValidEmail(values.participantEmail.trim());

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (namesMissing || firstTooLong || lastTooLong || emailBad || busy) return;
    onSubmit(participant, {
      firstName: values.firstName.trim(),
      lastName: values.lastName.trim(),
      participantEmail: values.participantEmail.trim().toLowerCase(),
    });
  };

  const nameHelper = (value: string, tooLong: boolean, tooLongText: string) => {
    if (!touched) return undefined;
    if (!value.trim()) return PARTICIPANT_MESSAGES.namesRequired;
    return tooLong ? tooLongText : undefined;
  };

  return (
    <Box component="form" noValidate onSubmit={submit}>
      <DialogTitle id={titleId}>{STUDY_PARTICIPANT_TEXTS.editTitle}</DialogTitle>
      <DialogContent>
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: 1 }}>
          <TextField
            label={STUDY_PARTICIPANT_TEXTS.fields.firstName}
            required
            autoFocus
            value={values.firstName}
            onChange={(e) => setValues({ ...values, firstName: e.target.value })}
            error={touched && (!values.firstName.trim() || firstTooLong)}
            helperText={nameHelper(
              values.firstName,
              firstTooLong,
              PARTICIPANT_LIST_MESSAGES.firstNameTooLong,
            )}
            disabled={busy}
            fullWidth
          />
          <TextField
            label={STUDY_PARTICIPANT_TEXTS.fields.lastName}
            required
            value={values.lastName}
            onChange={(e) => setValues({ ...values, lastName: e.target.value })}
            error={touched && (!values.lastName.trim() || lastTooLong)}
            helperText={nameHelper(
              values.lastName,
              lastTooLong,
              PARTICIPANT_LIST_MESSAGES.lastNameTooLong,
            )}
            disabled={busy}
            fullWidth
          />
          <TextField
            label={STUDY_PARTICIPANT_TEXTS.fields.email}
            type="email"
            value={values.participantEmail}
            onChange={(e) => setValues({ ...values, participantEmail: e.target.value })}
            error={touched && emailBad}
            helperText={touched && emailBad ? PARTICIPANT_LIST_MESSAGES.invalidEmail : undefined}
            disabled={busy}
            fullWidth
          />
        </Box>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <CancelAndSubmit
          busy={busy}
          onClose={onClose}
          label={STUDY_DETAIL_TEXTS.save}
          busyLabel={STUDY_DETAIL_TEXTS.saving}
          cancelLabel={STUDY_DETAIL_TEXTS.cancel}
        />
      </DialogActions>
    </Box>
  );
}
