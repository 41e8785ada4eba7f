import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Switch from '@mui/material/Switch';
import { CONSENT_SETTING_TEXTS as TEXTS, type WithdrawalData } from '@research/contracts';
import { useId } from 'react';

export interface ConsentSettings {
  consentRequired: boolean;
  withdrawalData: WithdrawalData;
}

/** Consent required (default on for new studies) and what a withdrawal does to the data. */
export function ConsentSettingsFields({
  value,
  onChange,
  disabled,
}: {
  value: ConsentSettings;
  onChange: (value: ConsentSettings) => void;
  disabled?: boolean;
}) {
  const label = useId();
  const help = useId();
  return (
    <>
      <FormControl disabled={disabled}>
        <FormControlLabel
          control={
            <Switch
              checked={value.consentRequired}
              onChange={(e) => onChange({ ...value, consentRequired: e.target.checked })}
              slotProps={{ input: { 'aria-describedby': help } }}
            />
          }
          label={TEXTS.consentRequired}
        />
        <FormHelperText id={help} sx={{ mt: 0 }}>
          {TEXTS.consentRequiredHelp}
        </FormHelperText>
      </FormControl>
      <FormControl component="fieldset" disabled={disabled}>
        <FormLabel id={label} component="legend">
          {TEXTS.withdrawalData}
        </FormLabel>
        <RadioGroup
          aria-labelledby={label}
          value={value.withdrawalData}
          onChange={(e) =>
            onChange({ ...value, withdrawalData: e.target.value === 'delete' ? 'delete' : 'keep' })
          }
        >
          <FormControlLabel value="keep" control={<Radio />} label={TEXTS.keep} />
          <FormControlLabel value="delete" control={<Radio />} label={TEXTS.delete} />
        </RadioGroup>
      </FormControl>
    </>
  );
}
