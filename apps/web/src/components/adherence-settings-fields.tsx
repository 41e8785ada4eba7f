import FormControl from '@mui/material/FormControl';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { ADHERENCE_SETTING_TEXTS as TEXTS } from '@research/contracts';

export interface AdherenceSettings {
  validDayMinHours: number;
  riskNoSyncDays: number;
  /** null: no reminders. */
  reminderNoSyncDays: number | null;
}

export interface AdherenceSettingsFieldsProps {
  value: AdherenceSettings;
  onChange: (value: AdherenceSettings) => void;
  disabled?: boolean;
}

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);
const HOURS = range(1, 24);
const DAYS = range(1, 30);
const OFF = 'off';

/**
 * The study's adherence rules: the hours of wear that make a valid day, the days without a sync
 * before a participant is at risk, and the reminders to participants (off, or after N days).
 * Choices from a list, so no value out of the rules' bounds can be entered. Owner only; in
 * Create Study and Edit Study.
 */
export function AdherenceSettingsFields({
  value,
  onChange,
  disabled,
}: AdherenceSettingsFieldsProps) {
  return (
    <FormControl component="fieldset" disabled={disabled}>
      <FormLabel component="legend" sx={{ mb: 1.5 }}>
        {TEXTS.title}
      </FormLabel>
      <Stack spacing={2}>
        <TextField
          select
          label={TEXTS.validDayMinHours}
          value={value.validDayMinHours}
          onChange={(e) => onChange({ ...value, validDayMinHours: Number(e.target.value) })}
          helperText={TEXTS.validDayMinHoursHelp}
          disabled={disabled}
          fullWidth
        >
          {HOURS.map((hours) => (
            <MenuItem key={hours} value={hours}>
              {hours}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          label={TEXTS.riskNoSyncDays}
          value={value.riskNoSyncDays}
          onChange={(e) => onChange({ ...value, riskNoSyncDays: Number(e.target.value) })}
          helperText={TEXTS.riskNoSyncDaysHelp}
          disabled={disabled}
          fullWidth
        >
          {DAYS.map((days) => (
            <MenuItem key={days} value={days}>
              {days}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          label={TEXTS.reminderNoSyncDays}
          value={value.reminderNoSyncDays ?? OFF}
          onChange={(e) =>
            onChange({
              ...value,
              reminderNoSyncDays: e.target.value === OFF ? null : Number(e.target.value),
            })
          }
          helperText={TEXTS.reminderHelp}
          disabled={disabled}
          fullWidth
        >
          <MenuItem value={OFF}>{TEXTS.reminderOff}</MenuItem>
          {DAYS.map((days) => (
            <MenuItem key={days} value={days}>
              {days}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
    </FormControl>
  );
}
