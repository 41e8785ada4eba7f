import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import {
  EDIT_STUDY_TEXTS,
  STUDY_MESSAGES,
  type Study,
  type StudySettings,
} from '@research/contracts';
import { type FormEvent, useState } from 'react';
import { AdherenceSettingsFields } from './adherence-settings-fields';
import { ConsentSettingsFields } from './consent-settings-fields';
import { DeletedDataSettingField } from './deleted-data-setting-field';
import { EnrolmentSettingsFields } from './enrolment-settings-fields';
import { FieldStack, FormDialog, FormDialogBody } from './form-dialog';

export interface EditStudyValues {
  name: string;
  description: string;
  duration: string;
  /** Sent by the owner only, where the dialog offers settings: the server refuses others'. */
  settings?: StudySettings;
}

export interface EditStudyDialogProps {
  /** The study being edited; null closes the dialog. */
  study: Study | null;
  busy: boolean;
  onClose: () => void;
  /** Called with trimmed values once the name is present. */
  onSubmit: (study: Study, values: EditStudyValues) => void;
  /** The dashboard's way to 'Change Password'; the study screen has none. */
  onChangePassword?: (study: Study) => void;
  /** The study screen lets the owner change the enrolment settings here too. */
  editSettings?: boolean;
}

/**
 * 'Edit Study' on the dashboard and on the study screen: name (required), description and
 * duration (trimmed, optional), the owner's enrolment settings where offered, and the way to
 * 'Change Password' where offered.
 */
export function EditStudyDialog({ study, busy, onClose, ...rest }: EditStudyDialogProps) {
  return (
    <FormDialog open={study !== null} busy={busy} onClose={onClose} maxWidth="sm">
      {
        // Keyed so that each opening starts from the study's current values.
        study && <EditStudyForm key={study.id} study={study} busy={busy} {...rest} />
      }
    </FormDialog>
  );
}

function EditStudyForm({
  study,
  busy,
  onSubmit,
  onChangePassword,
  editSettings = false,
}: Omit<EditStudyDialogProps, 'study' | 'onClose'> & { study: Study }) {
  const [values, setValues] = useState({
    name: study.name,
    description: study.description ?? '',
    duration: study.duration ?? '',
  });
  const withSettings = editSettings && study.role === 'main';
  const [settings, setSettings] = useState<StudySettings>(study.settings);
  const [touched, setTouched] = useState(false);
  const nameMissing = values.name.trim() === '';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    // The rule shows under the field; nothing is sent until it holds.
    if (nameMissing || busy) return;
    onSubmit(study, {
      name: values.name.trim(),
      description: values.description.trim(),
      duration: values.duration.trim(),
      ...(withSettings ? { settings } : {}),
    });
  };

  return (
    <FormDialogBody
      title={EDIT_STUDY_TEXTS.title}
      onSubmit={submit}
      submitLabel={EDIT_STUDY_TEXTS.submit}
      busyLabel={STUDY_MESSAGES.updating}
      extraActions={
        onChangePassword ? (
          <Button
            variant="outlined"
            color="secondary"
            onClick={() => onChangePassword(study)}
            disabled={busy}
            sx={{ mr: 'auto' }}
          >
            {EDIT_STUDY_TEXTS.changePassword}
          </Button>
        ) : null
      }
    >
      <FieldStack>
        <TextField
          label={EDIT_STUDY_TEXTS.name}
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
          label={EDIT_STUDY_TEXTS.description}
          value={values.description}
          onChange={(e) => setValues({ ...values, description: e.target.value })}
          disabled={busy}
          multiline
          minRows={3}
          fullWidth
        />
        <TextField
          label={EDIT_STUDY_TEXTS.duration}
          placeholder={EDIT_STUDY_TEXTS.durationPlaceholder}
          value={values.duration}
          onChange={(e) => setValues({ ...values, duration: e.target.value })}
          disabled={busy}
          fullWidth
        />
        {withSettings && (
          <EnrolmentSettingsFields value={settings} onChange={setSettings} disabled={busy} />
        )}
        {withSettings && (
          <DeletedDataSettingField
            remove={settings.removeDataDeletedAtSource}
            onChange={(remove) => setSettings({ ...settings, removeDataDeletedAtSource: remove })}
            disabled={busy}
          />
        )}
        {withSettings && (
          <ConsentSettingsFields
            value={{
              consentRequired: settings.consentRequired,
              withdrawalData: settings.withdrawalData,
            }}
            onChange={(consent) => setSettings({ ...settings, ...consent })}
            disabled={busy}
          />
        )}
        {withSettings && (
          <AdherenceSettingsFields
            value={settings}
            onChange={(rules) => setSettings({ ...settings, ...rules })}
            disabled={busy}
          />
        )}
      </FieldStack>
    </FormDialogBody>
  );
}
