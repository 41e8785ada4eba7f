import TextField from '@mui/material/TextField';
import {
  formatStudyCodeInput,
  JOIN_STUDY_TEXTS,
  STUDY_CODE,
  STUDY_MESSAGES,
} from '@research/contracts';
import type { FormEvent } from 'react';
import {
  FieldStack,
  FormDialog,
  FormDialogBody,
  type PageFormDialogProps,
  useSubmitTried,
} from '../../../components/form-dialog';

export interface JoinStudyForm {
  studyCode: string;
  password: string;
}

export const EMPTY_JOIN_FORM: JoinStudyForm = { studyCode: '', password: '' };

/** 'Join Study as Collaborator': code (upper-cased, at most 6 characters) and password. */
export function JoinStudyDialog({
  open,
  busy,
  form,
  onChange,
  onClose,
  onSubmit,
}: PageFormDialogProps<JoinStudyForm>) {
  const [touched, setTouched] = useSubmitTried(open);
  const codeMissing = !form.studyCode.trim();
  const passwordMissing = !form.password;
  const missing = touched && (codeMissing || passwordMissing);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    // The rule shows under the first empty field; nothing is sent until both are filled.
    if (!busy && !codeMissing && !passwordMissing) onSubmit(form);
  };
  return (
    <FormDialog open={open} busy={busy} onClose={onClose} maxWidth="xs">
      <FormDialogBody
        title={JOIN_STUDY_TEXTS.title}
        intro={JOIN_STUDY_TEXTS.intro}
        onSubmit={submit}
        submitLabel={JOIN_STUDY_TEXTS.submit}
        busyLabel={STUDY_MESSAGES.joining}
      >
        <FieldStack intro>
          <TextField
            label={JOIN_STUDY_TEXTS.code}
            autoFocus
            autoComplete="off"
            value={form.studyCode}
            onChange={(e) =>
              onChange({
                ...form,
                studyCode: formatStudyCodeInput(e.target.value, STUDY_CODE.joinEntryLength),
              })
            }
            error={missing && codeMissing}
            helperText={missing && codeMissing ? STUDY_MESSAGES.joinFieldsRequired : undefined}
            disabled={busy}
            slotProps={{
              htmlInput: {
                autoCapitalize: 'characters',
                spellCheck: false,
                style: { fontFamily: 'monospace', letterSpacing: 2 },
              },
            }}
            fullWidth
          />
          <TextField
            label={JOIN_STUDY_TEXTS.password}
            type="password"
            autoComplete="off"
            value={form.password}
            onChange={(e) => onChange({ ...form, password: e.target.value })}
            error={missing && passwordMissing}
            helperText={
              missing && passwordMissing && !codeMissing
                ? STUDY_MESSAGES.joinFieldsRequired
                : undefined
            }
            disabled={busy}
            fullWidth
          />
        </FieldStack>
      </FormDialogBody>
    </FormDialog>
  );
}
