import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import {
  DEFAULT_PHONE_COUNTRY,
  PARTICIPANT_COMMON_TEXTS,
  type PhoneCountry,
  phoneCallingCode,
  phoneCountries,
  phoneProblem,
  toE164,
} from '@research/contracts';
import { useMemo, useState } from 'react';

/** Country names in the browser's language where it has them, English otherwise. */
function countryOptions(): { code: PhoneCountry; label: string }[] {
  const names = new Intl.DisplayNames(undefined, { type: 'region', fallback: 'code' });
  return phoneCountries()
    .map((code) => ({ code, label: `${names.of(code) ?? code} (+${phoneCallingCode(code)})` }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

/**
 * A phone typed in a country: the number as typed, the country a number without '+' is read in,
 * and what the server is sent (E.164 when it is a possible number, else the text, which the
 * server then refuses with its message).
 */
export function usePhoneInput(initial = '') {
  const [phone, setPhone] = useState(initial);
  const [country, setCountry] = useState<PhoneCountry>(DEFAULT_PHONE_COUNTRY);
  return {
    phone,
    setPhone,
    country,
    setCountry,
    /** The message for the number, or null when it is a possible number. */
    problem: () => phoneProblem(phone, country),
    /** The number to send: E.164 when possible, else as typed. */
    value: () => toE164(phone, country) ?? phone.trim(),
  };
}

export interface PhoneFieldProps {
  label: string;
  phone: string;
  country: PhoneCountry;
  onPhoneChange: (value: string) => void;
  onCountryChange: (country: PhoneCountry) => void;
  helperText?: string;
  error?: boolean;
  required?: boolean;
  autoFocus?: boolean;
  disabled?: boolean;
}

/**
 * A country picker next to the number: compact (a native select), US by default, and a number
 * typed with '+' and its country code is read as such whatever the picker says.
 */
export function PhoneField({
  label,
  phone,
  country,
  onPhoneChange,
  onCountryChange,
  helperText,
  error,
  required,
  autoFocus,
  disabled,
}: PhoneFieldProps) {
  const options = useMemo(countryOptions, []);
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
      <TextField
        select
        label={PARTICIPANT_COMMON_TEXTS.phoneCountryLabel}
        value={country}
        onChange={(event) => onCountryChange(event.target.value as PhoneCountry)}
        disabled={disabled}
        sx={{ width: '7.5rem', flexShrink: 0 }}
        slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
      >
        {/* The chosen country shows as 'US +1' so the closed picker stays narrow. */}
        {options.map((option) => (
          <option key={option.code} value={option.code}>
            {option.code === country
              ? `${option.code} +${phoneCallingCode(option.code)}`
              : option.label}
          </option>
        ))}
      </TextField>
      <TextField
        label={label}
        type="tel"
        value={phone}
        onChange={(event) => onPhoneChange(event.target.value)}
        helperText={helperText}
        error={error}
        autoComplete="tel"
        required={required}
        autoFocus={autoFocus}
        disabled={disabled}
        fullWidth
        slotProps={{ htmlInput: { inputMode: 'tel', maxLength: 24 } }}
      />
    </Box>
  );
}
