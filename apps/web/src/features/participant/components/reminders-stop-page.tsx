import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { REMINDERS_STOP_TEXTS } from '@research/contracts';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { stopReminders } from '../api/stop-reminders';
import { errorText, ParticipantPage, StepActions } from './participant-page';

type State =
  | { kind: 'ready' }
  | { kind: 'stopping' }
  | { kind: 'stopped'; message: string }
  | { kind: 'failed'; message: string };

/**
 * /participant/reminders/stop?token=…, the link of every reminder. The stop is a button, not done
 * on load: mail scanners open links to check them, and must not stop anyone's reminders.
 */
export default function RemindersStopPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token')?.trim() ?? '';
  const [state, setState] = useState<State>({ kind: 'ready' });

  async function stop() {
    if (state.kind === 'stopping') return;
    setState({ kind: 'stopping' });
    try {
      const answer = await stopReminders(token);
      setState({ kind: 'stopped', message: answer.message });
    } catch (cause) {
      setState({ kind: 'failed', message: errorText(cause, REMINDERS_STOP_TEXTS.failed) });
    }
  }

  if (!token)
    return (
      <ParticipantPage title={REMINDERS_STOP_TEXTS.title}>
        <Alert severity="error" role="alert">
          {REMINDERS_STOP_TEXTS.missingToken}
        </Alert>
      </ParticipantPage>
    );

  if (state.kind === 'stopped')
    return (
      <ParticipantPage title={REMINDERS_STOP_TEXTS.stoppedTitle}>
        <Alert severity="success" role="status">
          {state.message}
        </Alert>
      </ParticipantPage>
    );

  return (
    <ParticipantPage title={REMINDERS_STOP_TEXTS.title}>
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        <Typography>{REMINDERS_STOP_TEXTS.intro}</Typography>
        {state.kind === 'failed' && (
          <Alert severity="error" role="alert">
            {state.message}
          </Alert>
        )}
        <StepActions>
          <span />
          <Button
            variant="contained"
            size="large"
            onClick={() => void stop()}
            disabled={state.kind === 'stopping'}
          >
            {state.kind === 'stopping'
              ? REMINDERS_STOP_TEXTS.stopping
              : REMINDERS_STOP_TEXTS.confirm}
          </Button>
        </StepActions>
      </Box>
    </ParticipantPage>
  );
}
