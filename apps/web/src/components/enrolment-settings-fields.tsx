import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { StudySettings } from '@research/contracts';
import { ENROLMENT_SETTINGS_TEXTS } from '@research/contracts';
import { useId, useState } from 'react';

export interface EnrolmentSettingsFieldsProps {
  value: StudySettings;
  onChange: (next: StudySettings) => void;
  disabled?: boolean;
}

/**
 * The three study settings the owner may change, for the Edit Study dialog: who can
 * enrol, whether a code is required first, and how long data is kept after deletion. Controlled;
 * the dialog sends `settings` with PUT /api/studies/{id} (owner only on the server).
 */
export function EnrolmentSettingsFields({
  value,
  onChange,
  disabled,
}: EnrolmentSettingsFieldsProps) {
  const selfHelp = useId();
  const verifyHelp = useId();
  // Typed text, so the field can be emptied and retyped; only whole days in range are handed on.
  const [daysText, setDaysText] = useState(String(value.dataRetentionDays));
  const daysValid = /^\d+$/.test(daysText) && Number(daysText) >= 1 && Number(daysText) <= 36500;
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, display: 'grid', gap: 1.5 }}>
      <Typography component="legend" variant="subtitle1" sx={{ mb: 0.5 }}>
        {ENROLMENT_SETTINGS_TEXTS.title}
      </Typography>
      <Box>
        <FormControlLabel
          control={
            <Switch
              checked={value.allowSelfEnrollment}
              onChange={(e) => onChange({ ...value, allowSelfEnrollment: e.target.checked })}
              disabled={disabled}
              slotProps={{ input: { 'aria-describedby': selfHelp } }}
            />
          }
          label={ENROLMENT_SETTINGS_TEXTS.allowSelfEnrollment}
        />
        <FormHelperText id={selfHelp} sx={{ mt: 0 }}>
          {ENROLMENT_SETTINGS_TEXTS.allowSelfEnrollmentHelp}
        </FormHelperText>
      </Box>
      <Box>
        <FormControlLabel
          control={
            <Switch
              checked={value.requireVerification}
              onChange={(e) => onChange({ ...value, requireVerification: e.target.checked })}
              disabled={disabled}
              slotProps={{ input: { 'aria-describedby': verifyHelp } }}
            />
          }
          label={ENROLMENT_SETTINGS_TEXTS.requireVerification}
        />
        <FormHelperText id={verifyHelp} sx={{ mt: 0 }}>
          {ENROLMENT_SETTINGS_TEXTS.requireVerificationHelp}
        </FormHelperText>
      </Box>
      <TextField
        label={ENROLMENT_SETTINGS_TEXTS.dataRetentionDays}
        type="number"
        value={daysText}
        onChange={(e) => {
          setDaysText(e.target.value);
          const days = Number(e.target.value);
          if (/^\d+$/.test(e.target.value) && days >= 1 && days <= 36500)
            onChange({ ...value, dataRetentionDays: days });
        }}
        onBlur={() => setDaysText(String(value.dataRetentionDays))}
        error={!daysValid}
        helperText={ENROLMENT_SETTINGS_TEXTS.dataRetentionHelp}
        disabled={disabled}
        slotProps={{ htmlInput: { min: 1, max: 36500, step: 1 } }}
        sx={{ maxWidth: 260 }}
      />
    </Box>
  );
}
