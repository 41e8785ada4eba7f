import HelpOutline from '@mui/icons-material/HelpOutline';
import Sync from '@mui/icons-material/Sync';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { REAUTH_MESSAGES, REAUTHORIZE_TEXTS } from '@research/contracts';
import { type FormEvent, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { startAuthorization } from '../../../lib/wearables/authorization-flow';
import { verifyParticipant } from '../../../lib/wearables/verify-participant';

const reasonOf = (error: unknown) =>
  error instanceof Error && error.message.trim() ? error.message : undefined;

/**
 * /fitbit/reauthorize: the link of the reauthorization e-mail. The participant
 * confirms id and e-mail, then goes to Google's consent page in this tab.
 */
export default function ReauthorizePage() {
  const [searchParams] = useSearchParams();
  const queryId = searchParams.get('participantId')?.trim() ?? '';
  const queryEmail = searchParams.get('email')?.trim() ?? '';
  const quick = queryId !== '' && queryEmail === '';

  const [participantId, setParticipantId] = useState(queryId);
  const [email, setEmail] = useState(queryEmail);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function reconnect(event?: FormEvent) {
    event?.preventDefault();
    setError(null);
    const id = participantId.trim();
    const address = email.trim().toLowerCase();
    if (!id && !address) return setError(REAUTH_MESSAGES.idAndEmailRequired);
    if (!id) return setError(REAUTH_MESSAGES.participantIdRequired);
    if (!address) return setError(REAUTH_MESSAGES.emailRequired);
    setBusy(true);
    let studyCode: string;
    try {
      const verified = await verifyParticipant({ participantId: id, email: address });
      if (!verified.success || !verified.data.studyCode) {
        throw new Error(REAUTH_MESSAGES.verificationFailed);
      }
      studyCode = verified.data.studyCode;
    } catch (cause) {
      setBusy(false);
      const reason = reasonOf(cause);
      return setError(
        reason === REAUTH_MESSAGES.verificationFailed || !reason
          ? REAUTH_MESSAGES.verificationFailed
          : REAUTH_MESSAGES.failed(reason),
      );
    }
    try {
      const authUrl = await startAuthorization({
        participantId: id,
        email: address,
        studyCode,
        mode: 'redirect',
      });
      window.location.assign(authUrl);
    } catch (cause) {
      setBusy(false);
      // Each message on its own; without a reason, the default 'Unknown error' one.
      const reason = reasonOf(cause);
      setError(reason ? REAUTH_MESSAGES.initiateFailed(reason) : REAUTH_MESSAGES.failed());
    }
  }

  const button = (
    <Button
      type="submit"
      variant="contained"
      size="large"
      startIcon={busy ? <CircularProgress size={18} color="inherit" /> : <Sync />}
      disabled={busy || (!quick && (!participantId.trim() || !email.trim()))}
    >
      {busy ? REAUTHORIZE_TEXTS.reconnecting : REAUTHORIZE_TEXTS.reconnect}
    </Button>
  );

  return (
    // The layout's <main> holds this page: a second main region would confuse screen readers.
    <Box sx={{ maxWidth: 720, mx: 'auto', px: 2, py: 5 }}>
      <Typography variant="h4" component="h1" gutterBottom>
        {REAUTHORIZE_TEXTS.title}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {REAUTHORIZE_TEXTS.subtitle}
      </Typography>

      <Card variant="outlined" sx={{ mb: 3 }}>
        <CardContent>
          <Typography variant="h6" component="h2">
            {REAUTHORIZE_TEXTS.whyTitle}
          </Typography>
          <List dense>
            {REAUTHORIZE_TEXTS.reasons.map((reason) => (
              <ListItem key={reason} disableGutters>
                <ListItemText primary={reason} />
              </ListItem>
            ))}
          </List>
        </CardContent>
      </Card>

      <Card variant="outlined" sx={{ mb: 3 }}>
        <CardContent
          component="form"
          noValidate
          onSubmit={reconnect}
          sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}
        >
          {quick ? (
            <>
              <Typography variant="h6" component="h2">
                {REAUTHORIZE_TEXTS.quickTitle}
              </Typography>
              <Typography>{REAUTHORIZE_TEXTS.quickBody(queryId)}</Typography>
            </>
          ) : (
            <TextField
              label={REAUTHORIZE_TEXTS.participantIdLabel}
              placeholder={REAUTHORIZE_TEXTS.participantIdPlaceholder}
              value={participantId}
              onChange={(e) => {
                setParticipantId(e.target.value);
                setError(null);
              }}
              autoComplete="off"
              required
            />
          )}
          <TextField
            label={REAUTHORIZE_TEXTS.emailLabel}
            type="email"
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
              setError(null);
            }}
            autoComplete="email"
            required
          />
          {error && (
            <Alert severity="error" role="alert">
              {error}
            </Alert>
          )}
          <Typography variant="body2" color="text.secondary">
            {REAUTHORIZE_TEXTS.googleNote}
          </Typography>
          <Box>{button}</Box>
        </CardContent>
      </Card>

      <Card variant="outlined">
        <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
            <HelpOutline color="secondary" aria-hidden />
            <Typography variant="h6" component="h2">
              {REAUTHORIZE_TEXTS.helpTitle}
            </Typography>
          </Box>
          <Typography>{REAUTHORIZE_TEXTS.helpBody}</Typography>
          <Box>
            <Button
              component={RouterLink}
              to="/participant/verify"
              state={{ participantId: participantId.trim(), email: email.trim() }}
              variant="outlined"
            >
              {REAUTHORIZE_TEXTS.verifyLink}
            </Button>
          </Box>
        </CardContent>
      </Card>
    </Box>
  );
}
