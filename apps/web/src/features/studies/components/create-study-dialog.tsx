import TextField from '@mui/material/TextField';
import {
  CREATE_STUDY_TEXTS,
  type CreateStudyInput,
  createStudySchema,
  DEFAULT_STUDY_SETTINGS,
  MIN_PASSWORD_LENGTH,
  parseEmailList,
  STUDY_MESSAGES,
  type WithdrawalData,
} from '@research/contracts';
import type { FormEvent } from 'react';
import {
  type AdherenceSettings,
  AdherenceSettingsFields,
} from '../../../components/adherence-settings-fields';
import { ConsentSettingsFields } from '../../../components/consent-settings-fields';
import { DeletedDataSettingField } from '../../../components/deleted-data-setting-field';
import {
  FieldStack,
  FormDialog,
  FormDialogBody,
  type PageFormDialogProps,
  useSubmitTried,
} from '../../../components/form-dialog';

export interface CreateStudyForm extends AdherenceSettings {
  name: string;
  description: string;
  duration: string;
  password: string;
  collaborators: string;
  /** The study's setting for data deleted in the participant's Google account. */
  removeDataDeletedAtSource: boolean;
  consentRequired: boolean;
  withdrawalData: WithdrawalData;
}

type CreateTextField = Exclude<
  keyof CreateStudyForm,
  'removeDataDeletedAtSource' | 'consentRequired' | 'withdrawalData' | keyof AdherenceSettings
>;

export const EMPTY_CREATE_FORM: CreateStudyForm = {
  name: '',
  description: '',
  duration: '',
  password: '',
  collaborators: '',
  removeDataDeletedAtSource: DEFAULT_STUDY_SETTINGS.removeDataDeletedAtSource,
  consentRequired: DEFAULT_STUDY_SETTINGS.consentRequired,
  withdrawalData: DEFAULT_STUDY_SETTINGS.withdrawalData,
  validDayMinHours: DEFAULT_STUDY_SETTINGS.validDayMinHours,
  riskNoSyncDays: DEFAULT_STUDY_SETTINGS.riskNoSyncDays,
  reminderNoSyncDays: DEFAULT_STUDY_SETTINGS.reminderNoSyncDays,
};

/** A password, when given, is at least 6 characters: Create stays disabled otherwise. */
function studyPasswordTooShort(password: string): boolean {
  return password.length > 0 && password.length < MIN_PASSWORD_LENGTH;
}

/**
 * The create payload from the form: empty optional strings are left out,
 * collaborators are the comma-separated e-mails (trimmed, empties dropped), default settings but
 * those the form asks about (data deleted at the source, the adherence rules).
 */
export function toCreatePayload(form: CreateStudyForm): CreateStudyInput {
  const optional = (value: string) => (value.trim() ? value.trim() : undefined);
  return {
    name: form.name.trim(),
    description: optional(form.description),
    duration: optional(form.duration),
    password: form.password ? form.password : undefined,
    collaborators: parseEmailList(form.collaborators),
    settings: {
      ...DEFAULT_STUDY_SETTINGS,
      removeDataDeletedAtSource: form.removeDataDeletedAtSource,
      consentRequired: form.consentRequired,
      withdrawalData: form.withdrawalData,
      validDayMinHours: form.validDayMinHours,
      riskNoSyncDays: form.riskNoSyncDays,
      reminderNoSyncDays: form.reminderNoSyncDays,
    },
  };
}

type CreateFormErrors = Partial<Record<CreateTextField, string>>;

/**
 * The rules the form breaks, per field, checked with the same schema the server uses; shown
 * under the fields (once, not again in a modal). Empty when the form may be sent.
 */
export function createFormErrors(form: CreateStudyForm): CreateFormErrors {
  const errors: CreateFormErrors = {};
  if (!form.name.trim()) errors.name = STUDY_MESSAGES.nameRequired;
  if (studyPasswordTooShort(form.password)) errors.password = STUDY_MESSAGES.passwordTooShort;
  const parsed = createStudySchema.safeParse(toCreatePayload(form));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      const key: CreateTextField =
        field === 'description' || field === 'duration' || field === 'password'
          ? field
          : field === 'name'
            ? 'name'
            : 'collaborators';
      errors[key] ??= issue.message;
    }
  }
  return errors;
}

/** 'Create New Study'. The form lives in the page so it clears only after a success. */
export function CreateStudyDialog({
  open,
  busy,
  form,
  onChange,
  onClose,
  onSubmit,
}: PageFormDialogProps<CreateStudyForm>) {
  const [touched, setTouched] = useSubmitTried(open);
  const set = (field: CreateTextField) => (value: string) => onChange({ ...form, [field]: value });
  const passwordTooShort = studyPasswordTooShort(form.password);
  const errors = createFormErrors(form);
  // Shown after the first attempt to submit; the password rule shows while typing.
  const shown = (field: CreateTextField) => (touched ? errors[field] : undefined);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (busy || Object.keys(errors).length > 0) return;
    onSubmit(form);
  };

  return (
    <FormDialog open={open} busy={busy} onClose={onClose} maxWidth="sm">
      <FormDialogBody
        title={CREATE_STUDY_TEXTS.title}
        onSubmit={submit}
        submitLabel={CREATE_STUDY_TEXTS.submit}
        busyLabel={STUDY_MESSAGES.createWait}
        disabled={passwordTooShort}
        // The 30-second wait text is long: the actions may wrap.
        extraActions={null}
      >
        <FieldStack>
          <TextField
            label={CREATE_STUDY_TEXTS.name}
            required
            autoFocus
            value={form.name}
            onChange={(e) => set('name')(e.target.value)}
            error={Boolean(shown('name'))}
            helperText={shown('name')}
            disabled={busy}
            fullWidth
          />
          <TextField
            label={CREATE_STUDY_TEXTS.description}
            value={form.description}
            onChange={(e) => set('description')(e.target.value)}
            error={Boolean(shown('description'))}
            helperText={shown('description')}
            disabled={busy}
            multiline
            minRows={3}
            fullWidth
          />
          <TextField
            label={CREATE_STUDY_TEXTS.duration}
            placeholder={CREATE_STUDY_TEXTS.durationPlaceholder}
            value={form.duration}
            onChange={(e) => set('duration')(e.target.value)}
            error={Boolean(shown('duration'))}
            helperText={shown('duration')}
            disabled={busy}
            fullWidth
          />
          <TextField
            label={CREATE_STUDY_TEXTS.password}
            type="password"
            autoComplete="new-password"
            value={form.password}
            onChange={(e) => set('password')(e.target.value)}
            error={passwordTooShort || Boolean(shown('password'))}
            helperText={
              passwordTooShort
                ? STUDY_MESSAGES.passwordTooShort
                : (shown('password') ?? CREATE_STUDY_TEXTS.passwordHelper)
            }
            disabled={busy}
            fullWidth
          />
          <TextField
            label={CREATE_STUDY_TEXTS.collaborators}
            placeholder={CREATE_STUDY_TEXTS.collaboratorsPlaceholder}
            helperText={shown('collaborators') ?? CREATE_STUDY_TEXTS.collaboratorsHelper}
            error={Boolean(shown('collaborators'))}
            value={form.collaborators}
            onChange={(e) => set('collaborators')(e.target.value)}
            disabled={busy}
            fullWidth
          />
          <DeletedDataSettingField
            remove={form.removeDataDeletedAtSource}
            onChange={(remove) => onChange({ ...form, removeDataDeletedAtSource: remove })}
            disabled={busy}
          />
          <ConsentSettingsFields
            value={{ consentRequired: form.consentRequired, withdrawalData: form.withdrawalData }}
            onChange={(consent) => onChange({ ...form, ...consent })}
            disabled={busy}
          />
          <AdherenceSettingsFields
            value={form}
            onChange={(rules) => onChange({ ...form, ...rules })}
            disabled={busy}
          />
        </FieldStack>
      </FormDialogBody>
    </FormDialog>
  );
}
