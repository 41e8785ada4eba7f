import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import {
  CREATE_STUDY_TEXTS,
  EDIT_STUDY_TEXTS,
  STUDY_MESSAGES,
  type Study,
} from '@research/contracts';
import { type FormEvent, useId, useState } from 'react';
import { CancelAndSubmit } from './cancel-and-submit';

export interface EditStudyForm {
  name: string;
  description: string;
  duration: string;
}

export interface EditStudyDialogProps {
  /** The study being edited; null closes the dialog. */
  study: Study | null;
  busy: boolean;
  onClose: () => void;
  onSubmit: (study: Study, form: EditStudyForm) => void;
  onChangePassword: (study: Study) => void;
}

/** 'Edit Study': name (required), description, duration, and the way to 'Change Password'. */
export function EditStudyDialog({
  study,
  busy,
  onClose,
  onSubmit,
  onChangePassword,
}: EditStudyDialogProps) {
  const titleId = useId();
  return (
    <Dialog
      aria-labelledby={titleId}
      open={study !== null}
      onClose={busy ? undefined : onClose}
      maxWidth="sm"
      fullWidth
    >
      {/* Keyed so that each opening starts from the study's current values. */}
      {study && (
        <EditStudyFormContent
          key={study.id}
          titleId={titleId}
          study={study}
          busy={busy}
          onClose={onClose}
          onSubmit={onSubmit}
          onChangePassword={onChangePassword}
        />
      )}
    </Dialog>
  );
}

function EditStudyFormContent({
  titleId,
  study,
  busy,
  onClose,
  onSubmit,
  onChangePassword,
}: Omit<EditStudyDialogProps, 'study'> & { study: Study; titleId: string }) {
  const [form, setForm] = useState<EditStudyForm>({
    name: study.name,
    description: study.description ?? '',
    duration: study.duration ?? '',
  });
  const [touched, setTouched] = useState(false);
  const nameMissing = !form.name.trim();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    // The rule shows under the field; nothing is sent until it holds.
    if (!busy && !nameMissing) onSubmit(study, form);
  };

  return (
    <Box component="form" noValidate onSubmit={submit}>
      <DialogTitle id={titleId}>{EDIT_STUDY_TEXTS.title}</DialogTitle>
      <DialogContent>
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: 1 }}>
          <TextField
            label={CREATE_STUDY_TEXTS.name}
            required
            autoFocus
            value={form.name}
            onChange={(e) => setForm({ ...form, name: e.target.value })}
            error={touched && nameMissing}
            helperText={touched && nameMissing ? STUDY_MESSAGES.nameRequired : undefined}
            disabled={busy}
            fullWidth
          />
          <TextField
            label={CREATE_STUDY_TEXTS.description}
            value={form.description}
            onChange={(e) => setForm({ ...form, description: e.target.value })}
            disabled={busy}
            multiline
            minRows={3}
            fullWidth
          />
          <TextField
            label={CREATE_STUDY_TEXTS.duration}
            placeholder={CREATE_STUDY_TEXTS.durationPlaceholder}
            value={form.duration}
            onChange={(e) => setForm({ ...form, duration: e.target.value })}
            disabled={busy}
            fullWidth
          />
        </Box>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2, flexWrap: 'wrap', gap: 1 }}>
        <Button
          variant="outlined"
          color="secondary"
          onClick={() => onChangePassword(study)}
          disabled={busy}
          sx={{ mr: 'auto' }}
        >
          {EDIT_STUDY_TEXTS.changePassword}
        </Button>
        <CancelAndSubmit
          busy={busy}
          onClose={onClose}
          label={EDIT_STUDY_TEXTS.submit}
          busyLabel={STUDY_MESSAGES.updating}
        />
      </DialogActions>
    </Box>
  );
}
