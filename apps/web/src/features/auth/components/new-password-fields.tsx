import TextField from '@mui/material/TextField';
import { ACCOUNT_FORM_TEXTS } from '@research/contracts';

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
  passwordLabel = ACCOUNT_FORM_TEXTS.password,
}: NewPasswordFieldsProps) {
  return (
    <>
      <TextField
        label={passwordLabel}
        type="password"
        autoComplete="new-password"
        helperText={ACCOUNT_FORM_TEXTS.passwordHelper}
        value={password}
        onChange={(e) => onPasswordChange(e.target.value)}
        fullWidth
      />
      <TextField
        label={ACCOUNT_FORM_TEXTS.confirmPassword}
        type="password"
        autoComplete="new-password"
        value={confirm}
        onChange={(e) => onConfirmChange(e.target.value)}
        fullWidth
      />
    </>
  );
}
