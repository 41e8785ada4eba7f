import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { CONTACT_MESSAGES, INVITE_DIALOG_TEXTS, STUDY_DETAIL_TEXTS } from '@research/contracts';
import { type FormEvent, useState } from 'react';

export interface EmailDraft {
  subject: string;
  body: string;
}

export interface EmailReviewProps {
  titleId: string;
  title: string;
  draft: EmailDraft;
  onChange: (draft: EmailDraft) => void;
  recipientCount: number;
  /** A note under the body, e.g. that the server adds the study password. */
  note?: string;
  /** A further rule for the body (e.g. the invitation's study description), shown under it. */
  bodyProblem?: ((body: string) => string | null) | undefined;
  sendLabel: string;
  busy: boolean;
  onBack: () => void;
  onSend: () => void;
}

/**
 * The 'Review & Edit … Email' step: the generated subject and body, both editable,
 * then 'Back to Edit' or send. An emptied subject or body is refused here, under the field.
 */
export function EmailReview({
  titleId,
  title,
  draft,
  onChange,
  recipientCount,
  note,
  bodyProblem,
  sendLabel,
  busy,
  onBack,
  onSend,
}: EmailReviewProps) {
  const [touched, setTouched] = useState(false);
  const subjectMissing = draft.subject.trim() === '';
  const bodyMissing = draft.body.trim() === '';
  const bodyRule = bodyMissing ? null : (bodyProblem?.(draft.body) ?? null);
  const problem =
    subjectMissing || bodyMissing ? CONTACT_MESSAGES.titleAndContentRequired : bodyRule;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (problem || busy) return;
    onSend();
  };

  return (
    <Box component="form" noValidate onSubmit={submit}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent dividers>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {INVITE_DIALOG_TEXTS.recipientsSummary(recipientCount)}
        </Typography>
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <TextField
            label={INVITE_DIALOG_TEXTS.subject}
            value={draft.subject}
            onChange={(event) => onChange({ ...draft, subject: event.target.value })}
            error={touched && subjectMissing}
            disabled={busy}
            required
            fullWidth
          />
          <TextField
            label={INVITE_DIALOG_TEXTS.body}
            value={draft.body}
            onChange={(event) => onChange({ ...draft, body: event.target.value })}
            error={touched && (bodyMissing || bodyRule !== null)}
            helperText={touched && problem ? problem : undefined}
            disabled={busy}
            required
            multiline
            minRows={10}
            maxRows={20}
            fullWidth
          />
          {note && (
            <Alert severity="info" sx={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
              {note}
            </Alert>
          )}
        </Box>
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2, flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={onBack} disabled={busy} sx={{ mr: 'auto' }}>
          {STUDY_DETAIL_TEXTS.backToEdit}
        </Button>
        <Button
          type="submit"
          variant="contained"
          disabled={busy}
          startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined}
        >
          {busy ? STUDY_DETAIL_TEXTS.sending : sendLabel}
        </Button>
      </DialogActions>
    </Box>
  );
}
