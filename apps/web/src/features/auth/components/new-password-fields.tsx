import TextField from '@mui/material/TextField';

interface NewPasswordFieldsProps {
  password: string;
  confirm: string;
  onPasswordChange: (value: string) => void;
  onConfirmChange: (value: string) => void;
  passwordLabel?: string;
}

/** A new password and its confirmation, as sign-up, master set-up and password reset ask for them. */
export function NewPasswordFields({
  password,
  confirm,
  onPasswordChange,
  onConfirmChange,
  passwordLabel = 'Password',
}: NewPasswordFieldsProps) {
  return (
    <>
      <TextField
        label={passwordLabel}
        type="password"
        autoComplete="new-password"
        helperText="Minimum 6 characters"
        value={password}
        onChange={(e) => onPasswordChange(e.target.value)}
        fullWidth
      />
      <TextField
        label="Confirm Password"
        type="password"
        autoComplete="new-password"
        value={confirm}
        onChange={(e) => onConfirmChange(e.target.value)}
        fullWidth
      />
    </>
  );
}
