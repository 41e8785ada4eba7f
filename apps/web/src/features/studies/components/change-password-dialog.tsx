import TextField from '@mui/material/TextField';
import {
  CHANGE_STUDY_PASSWORD_TEXTS,
  MIN_PASSWORD_LENGTH,
  STUDY_MESSAGES,
  type Study,
} from '@research/contracts';
import { type FormEvent, useState } from 'react';
import { FieldStack, FormDialog, FormDialogBody } from '../../../components/form-dialog';

export interface ChangePasswordForm {
  current: string;
  next: string;
  confirm: string;
}

/** A study sets its first password without a current one; older replies say nothing: ask. */
export const needsCurrentPassword = (study: Study) => study.hasPassword !== false;

/**
 * The first client rule the form breaks, and the field it is shown under. The
 * current password is only asked for (and required) when the study has one.
 */
export function changePasswordError(
  form: ChangePasswordForm,
  needsCurrent = true,
): { field: keyof ChangePasswordForm; message: string } | null {
  const fields: (keyof ChangePasswordForm)[] = needsCurrent
    ? ['current', 'next', 'confirm']
    : ['next', 'confirm'];
  const empty = fields.find((field) => !form[field]);
  if (empty) return { field: empty, message: STUDY_MESSAGES.allPasswordFieldsRequired };
  if (form.next !== form.confirm)
    return { field: 'confirm', message: STUDY_MESSAGES.newPasswordsDoNotMatch };
  if (form.next.length < MIN_PASSWORD_LENGTH)
    return { field: 'next', message: STUDY_MESSAGES.newPasswordTooShort };
  return null;
}

interface ChangePasswordDialogProps {
  study: Study | null;
  busy: boolean;
  onClose: () => void;
  onSubmit: (study: Study, form: ChangePasswordForm) => void;
}

/**
 * 'Change Study Password': current, new and confirm; the server checks the current one. A study
 * without a password asks for the new one only.
 */
export function ChangePasswordDialog({
  study,
  busy,
  onClose,
  onSubmit,
}: ChangePasswordDialogProps) {
  return (
    <FormDialog open={study !== null} busy={busy} onClose={onClose} maxWidth="xs">
      {study && (
        <ChangePasswordContent key={study.id} study={study} busy={busy} onSubmit={onSubmit} />
      )}
    </FormDialog>
  );
}

function ChangePasswordContent({
  study,
  busy,
  onSubmit,
}: Omit<ChangePasswordDialogProps, 'study' | 'onClose'> & { study: Study }) {
  const [form, setForm] = useState<ChangePasswordForm>({ current: '', next: '', confirm: '' });
  const [touched, setTouched] = useState(false);
  const needsCurrent = needsCurrentPassword(study);
  const problem = touched ? changePasswordError(form, needsCurrent) : null;
  const empty = (field: keyof ChangePasswordForm) =>
    problem?.message === STUDY_MESSAGES.allPasswordFieldsRequired && !form[field];
  // Each rule shows once, under the field it is about.
  const fieldError = (field: keyof ChangePasswordForm) => ({
    error: problem?.field === field || empty(field),
    helperText: problem?.field === field ? problem.message : undefined,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!busy && changePasswordError(form, needsCurrent) === null) onSubmit(study, form);
  };
  return (
    <FormDialogBody
      title={CHANGE_STUDY_PASSWORD_TEXTS.title}
      intro={
        needsCurrent
          ? CHANGE_STUDY_PASSWORD_TEXTS.intro(study.name)
          : CHANGE_STUDY_PASSWORD_TEXTS.introFirst(study.name)
      }
      onSubmit={submit}
      submitLabel={
        needsCurrent ? CHANGE_STUDY_PASSWORD_TEXTS.submit : CHANGE_STUDY_PASSWORD_TEXTS.submitFirst
      }
      busyLabel={STUDY_MESSAGES.changing}
    >
      <FieldStack intro>
        {needsCurrent && (
          <TextField
            label={CHANGE_STUDY_PASSWORD_TEXTS.current}
            type="password"
            autoComplete="current-password"
            autoFocus
            value={form.current}
            onChange={(e) => setForm({ ...form, current: e.target.value })}
            {...fieldError('current')}
            disabled={busy}
            fullWidth
          />
        )}
        <TextField
          label={CHANGE_STUDY_PASSWORD_TEXTS.next}
          type="password"
          autoComplete="new-password"
          autoFocus={!needsCurrent}
          value={form.next}
          onChange={(e) => setForm({ ...form, next: e.target.value })}
          {...fieldError('next')}
          helperText={fieldError('next').helperText ?? CHANGE_STUDY_PASSWORD_TEXTS.nextHelper}
          disabled={busy}
          fullWidth
        />
        <TextField
          label={CHANGE_STUDY_PASSWORD_TEXTS.confirm}
          type="password"
          autoComplete="new-password"
          value={form.confirm}
          onChange={(e) => setForm({ ...form, confirm: e.target.value })}
          {...fieldError('confirm')}
          disabled={busy}
          fullWidth
        />
      </FieldStack>
    </FormDialogBody>
  );
}
