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
import { type FormEvent, useState } from 'react';
import { FieldStack, FormDialog, FormDialogBody } from '../../../components/form-dialog';

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
  return (
    <FormDialog open={participant !== null} busy={busy} onClose={onClose} maxWidth="sm">
      {participant && (
        <EditForm key={participant.id} participant={participant} busy={busy} onSubmit={onSubmit} />
      )}
    </FormDialog>
  );
}

function EditForm({
  participant,
  busy,
  onSubmit,
}: Omit<EditParticipantDialogProps, 'participant' | 'onClose'> & {
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
  const emailChanged =
    values.participantEmail.trim().toLowerCase() !== participant.participantEmail.toLowerCase();

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
    <FormDialogBody
      title={STUDY_PARTICIPANT_TEXTS.editTitle}
      onSubmit={submit}
      submitLabel={STUDY_DETAIL_TEXTS.save}
      busyLabel={STUDY_DETAIL_TEXTS.saving}
      cancelLabel={STUDY_DETAIL_TEXTS.cancel}
    >
      <FieldStack>
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
          helperText={
            touched && emailBad
              ? PARTICIPANT_LIST_MESSAGES.invalidEmail
              : emailChanged && !emailBad
                ? STUDY_PARTICIPANT_TEXTS.emailChangeHint
                : undefined
          }
          disabled={busy}
          fullWidth
        />
      </FieldStack>
    </FormDialogBody>
  );
}
