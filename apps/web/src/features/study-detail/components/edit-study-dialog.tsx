import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import {
  STUDY_DETAIL_TEXTS,
  STUDY_EDIT_TEXTS,
  STUDY_MESSAGES,
  type Study,
  type StudySettings,
} from '@research/contracts';
import { type FormEvent, useId, useState } from 'react';
import { EnrolmentSettingsFields } from '../../participant/components/enrolment-settings-fields';

export interface EditStudyValues {
  name: string;
  description: string;
  duration: string;
  /** Sent by the owner only: the server refuses settings from anyone else. */
  settings?: StudySettings;
}

export interface EditStudyDialogProps {
  open: boolean;
  study: Study;
  busy: boolean;
  onClose: () => void;
  /** Called with trimmed values once the name is present. */
  onSubmit: (values: EditStudyValues) => void;
}

/** 'Edit Study': name required; description and duration trimmed, duration optional. */
export function EditStudyDialog({ open, study, busy, onClose, onSubmit }: EditStudyDialogProps) {
  const titleId = useId();
  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      aria-labelledby={titleId}
      maxWidth="sm"
      fullWidth
    >
      {open && (
        <EditStudyForm
          titleId={titleId}
          study={study}
          busy={busy}
          onClose={onClose}
          onSubmit={onSubmit}
        />
      )}
    </Dialog>
  );
}

function EditStudyForm({
  titleId,
  study,
  busy,
  onClose,
  onSubmit,
}: Omit<EditStudyDialogProps, 'open'> & { titleId: string }) {
  const [values, setValues] = useState<EditStudyValues>({
    name: study.name,
    description: study.description ?? '',
    duration: study.duration ?? '',
  });
  const isOwner = study.role === 'main';
  const [settings, setSettings] = useState<StudySettings>(study.settings);
  const [touched, setTouched] = useState(false);
  const nameMissing = values.name.trim() === '';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    // Shown once, under the field: no modal on top of it.
    if (nameMissing || busy) return;
    onSubmit({
      name: values.name.trim(),
      description: values.description.trim(),
      duration: values.duration.trim(),
      ...(isOwner ? { settings } : {}),
    });
  };

  return (
    <Box component="form" noValidate onSubmit={submit}>
      <DialogTitle id={titleId}>{STUDY_EDIT_TEXTS.title}</DialogTitle>
      <DialogContent>
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: 1 }}>
          <TextField
            label={STUDY_EDIT_TEXTS.name}
            required
            autoFocus
            value={values.name}
            onChange={(e) => setValues({ ...values, name: e.target.value })}
            error={touched && nameMissing}
            helperText={touched && nameMissing ? STUDY_MESSAGES.nameRequired : undefined}
            disabled={busy}
            fullWidth
          />
          <TextField
            label={STUDY_EDIT_TEXTS.description}
            value={values.description}
            onChange={(e) => setValues({ ...values, description: e.target.value })}
            disabled={busy}
            multiline
            minRows={3}
            fullWidth
          />
          <TextField
            label={STUDY_EDIT_TEXTS.duration}
            placeholder={STUDY_EDIT_TEXTS.durationPlaceholder}
            value={values.duration}
            onChange={(e) => setValues({ ...values, duration: e.target.value })}
            disabled={busy}
            fullWidth
          />
          {isOwner && (
            <EnrolmentSettingsFields value={settings} onChange={setSettings} disabled={busy} />
          )}
        </Box>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={busy}>
          {STUDY_DETAIL_TEXTS.cancel}
        </Button>
        <Button
          type="submit"
          variant="contained"
          disabled={busy}
          startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined}
        >
          {busy ? STUDY_MESSAGES.updating : STUDY_EDIT_TEXTS.submit}
        </Button>
      </DialogActions>
    </Box>
  );
}
