import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { INVITE_DIALOG_TEXTS } from '@research/contracts';

/** Both e-mail dialogs either invite (generated text) or contact (free text). */
export type MailMode = 'invite' | 'contact';

/** The Invite / Contact switch at the top of both e-mail dialogs. */
export function ModeToggle({
  mode,
  onChange,
}: {
  mode: MailMode;
  onChange: (mode: MailMode) => void;
}) {
  return (
    <ToggleButtonGroup
      exclusive
      size="small"
      color="primary"
      value={mode}
      onChange={(_, next: MailMode | null) => next && onChange(next)}
      aria-label={INVITE_DIALOG_TEXTS.modeLabel}
      sx={{ mb: 2 }}
    >
      <ToggleButton value="invite">{INVITE_DIALOG_TEXTS.invite}</ToggleButton>
      <ToggleButton value="contact">{INVITE_DIALOG_TEXTS.contact}</ToggleButton>
    </ToggleButtonGroup>
  );
}
