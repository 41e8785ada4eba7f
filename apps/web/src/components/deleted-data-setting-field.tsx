import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import { DELETED_AT_SOURCE_SETTING_TEXTS as TEXTS } from '@research/contracts';
import { useId } from 'react';

export interface DeletedDataSettingFieldProps {
  /** The study's `removeDataDeletedAtSource`. */
  remove: boolean;
  onChange: (remove: boolean) => void;
  disabled?: boolean;
}

/**
 * What the study does with data a participant deletes in their Google account: keep the copy
 * collected, marked (default), or remove it from the dataset. In Create Study and Edit Study.
 */
export function DeletedDataSettingField({
  remove,
  onChange,
  disabled,
}: DeletedDataSettingFieldProps) {
  const label = useId();
  const help = useId();
  return (
    <FormControl component="fieldset" disabled={disabled}>
      <FormLabel id={label} component="legend">
        {TEXTS.title}
      </FormLabel>
      <RadioGroup
        aria-labelledby={label}
        aria-describedby={help}
        value={remove ? 'remove' : 'keep'}
        onChange={(e) => onChange(e.target.value === 'remove')}
      >
        <FormControlLabel value="keep" control={<Radio />} label={TEXTS.keep} />
        <FormControlLabel value="remove" control={<Radio />} label={TEXTS.remove} />
      </RadioGroup>
      <FormHelperText id={help} sx={{ mt: 0 }}>
        {remove ? TEXTS.removeHelp : TEXTS.keepHelp}
      </FormHelperText>
    </FormControl>
  );
}
