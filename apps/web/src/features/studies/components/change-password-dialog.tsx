import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { MIN_PASSWORD_LENGTH, STUDY_MESSAGES, type Study } from '@research/contracts';
import { type FormEvent, useId, useState } from 'react';
import { CHANGE_PASSWORD_TEXTS } from '../texts';
import { CancelAndSubmit } from './cancel-and-submit';

export interface ChangePasswordForm {
  current: string;
  next: string;
  confirm: string;
}

/** The client rules of spec 000 §5, in order; null when the form may be sent. */
export function changePasswordError(form: ChangePasswordForm): string | null {
  if (!form.current || !form.next || !form.confirm) return STUDY_MESSAGES.allPasswordFieldsRequired;
  if (form.next !== form.confirm) return STUDY_MESSAGES.newPasswordsDoNotMatch;
  if (form.next.length < MIN_PASSWORD_LENGTH) return STUDY_MESSAGES.newPasswordTooShort;
  return null;
}

export interface ChangePasswordDialogProps {
  study: Study | null;
  busy: boolean;
  onClose: () => void;
  onSubmit: (study: Study, form: ChangePasswordForm) => void;
}

/** 'Change Study Password': current, new and confirm; the server checks the current one. */
export function ChangePasswordDialog({
  study,
  busy,
  onClose,
  onSubmit,
}: ChangePasswordDialogProps) {
  const titleId = useId();
  return (
    <Dialog
      aria-labelledby={titleId}
      open={study !== null}
      onClose={busy ? undefined : onClose}
      maxWidth="xs"
      fullWidth
    >
      {study && (
        <ChangePasswordContent
          key={study.id}
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

function ChangePasswordContent({
  titleId,
  study,
  busy,
  onClose,
  onSubmit,
}: Omit<ChangePasswordDialogProps, 'study'> & { study: Study; titleId: string }) {
  const [form, setForm] = useState<ChangePasswordForm>({ current: '', next: '', confirm: '' });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!busy) onSubmit(study, form);
  };
  return (
    <Box component="form" noValidate onSubmit={submit}>
      <DialogTitle id={titleId}>{CHANGE_PASSWORD_TEXTS.title}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          {CHANGE_PASSWORD_TEXTS.intro(study.name)}
        </DialogContentText>
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <TextField
            label={CHANGE_PASSWORD_TEXTS.current}
            type="password"
            autoComplete="current-password"
            autoFocus
            value={form.current}
            onChange={(e) => setForm({ ...form, current: e.target.value })}
            disabled={busy}
            fullWidth
          />
          <TextField
            label={CHANGE_PASSWORD_TEXTS.next}
            type="password"
            autoComplete="new-password"
            helperText={CHANGE_PASSWORD_TEXTS.nextHelper}
            value={form.next}
            onChange={(e) => setForm({ ...form, next: e.target.value })}
            disabled={busy}
            fullWidth
          />
          <TextField
            label={CHANGE_PASSWORD_TEXTS.confirm}
            type="password"
            autoComplete="new-password"
            value={form.confirm}
            onChange={(e) => setForm({ ...form, confirm: e.target.value })}
            disabled={busy}
            fullWidth
          />
        </Box>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <CancelAndSubmit
          busy={busy}
          onClose={onClose}
          label={CHANGE_PASSWORD_TEXTS.submit}
          busyLabel={STUDY_MESSAGES.changing}
        />
      </DialogActions>
    </Box>
  );
}
