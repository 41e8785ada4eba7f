import TextField from '@mui/material/TextField';
import {
  ACCOUNT_FORM_MESSAGES,
  ACCOUNT_FORM_TEXTS,
  MIN_PASSWORD_LENGTH,
} from '@research/contracts';
import { NewPasswordFields } from './new-password-fields';

/** What sign-up and the master set-up ask of a new account. */
export interface NewAccount {
  fullName: string;
  email: string;
  password: string;
  confirm: string;
}

export const EMPTY_ACCOUNT: NewAccount = { fullName: '', email: '', password: '', confirm: '' };

/** The first rule the form breaks before the request schema is asked, or null. */
export function newAccountProblem({ fullName, email, password, confirm }: NewAccount) {
  if (!fullName.trim() || !email.trim() || !password || !confirm) {
    return ACCOUNT_FORM_MESSAGES.fillAllFields;
  }
  if (password !== confirm) return ACCOUNT_FORM_MESSAGES.passwordsDoNotMatch;
  if (password.length < MIN_PASSWORD_LENGTH) return ACCOUNT_FORM_MESSAGES.passwordTooShort;
  return null;
}

/** Full name, e-mail address, and a new password with its confirmation. */
export function NewAccountFields({
  value,
  onChange,
}: {
  value: NewAccount;
  onChange: (next: NewAccount) => void;
}) {
  return (
    <>
      <TextField
        label={ACCOUNT_FORM_TEXTS.fullName}
        autoComplete="name"
        value={value.fullName}
        onChange={(e) => onChange({ ...value, fullName: e.target.value })}
        fullWidth
      />
      <TextField
        label={ACCOUNT_FORM_TEXTS.emailAddress}
        type="email"
        autoComplete="email"
        value={value.email}
        onChange={(e) => onChange({ ...value, email: e.target.value })}
        fullWidth
      />
      <NewPasswordFields
        password={value.password}
        confirm={value.confirm}
        onPasswordChange={(password) => onChange({ ...value, password })}
        onConfirmChange={(confirm) => onChange({ ...value, confirm })}
      />
    </>
  );
}
