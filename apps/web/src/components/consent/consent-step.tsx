import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  CONSENT_LIMITS,
  CONSENT_MESSAGES,
  type ParticipantConsent,
  CONSENT_STEP_TEXTS as T,
} from '@research/contracts';
import { type FormEvent, type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import {
  downloadOwnCopy,
  fetchParticipantConsent,
  openConsentFormPdf,
  type SessionHeaders,
  signConsent,
} from '../../lib/consent/consent-api';

const errorText = (error: unknown, fallback: string): string =>
  error instanceof Error && error.message.trim() ? error.message : fallback;

/** The step's actions: side by side, stacked on phones (as the participant pages' own). */
function StepActions({ children }: { children: ReactNode }) {
  return (
    <Box
      sx={{
        display: 'flex',
        flexDirection: { xs: 'column-reverse', sm: 'row' },
        justifyContent: 'flex-end',
        gap: 1.5,
        mt: 3,
        '& > *': { minHeight: 44 },
      }}
    >
      {children}
    </Box>
  );
}

import { MarkdownView } from './markdown-view';

type Loaded = Omit<ParticipantConsent, 'success'>;

/**
 * The consent step of the participant flows, after verification and before the wearable step:
 * the form in force, read to its end, each statement ticked, the full name typed, signed. A study
 * without consent, or a participant who signed the version in force, passes straight on.
 */
export function ConsentStep({
  participantId,
  headers,
  onDone,
}: {
  participantId: string;
  /** The participant session's headers (this tab's session). */
  headers: () => SessionHeaders;
  onDone: () => void;
}) {
  const [consent, setConsent] = useState<Loaded | null>(null);
  const [signedNow, setSignedNow] = useState<{ versionNumber: number; signedAt: string } | null>(
    null,
  );
  const [error, setError] = useState<string | null>(null);
  // The latest callback, so a parent's re-render does not load the form again.
  const done = useRef(onDone);
  done.current = onDone;
  const sessionOf = useRef(headers);
  sessionOf.current = headers;

  // biome-ignore lint/correctness/useExhaustiveDependencies: loaded again only for another participant
  useEffect(() => {
    let live = true;
    fetchParticipantConsent(sessionOf.current())
      .then((answer) => {
        if (!live) return;
        if (answer.state === 'not-required' || answer.state === 'signed') done.current();
        else setConsent(answer);
      })
      .catch((cause) => live && setError(errorText(cause, CONSENT_MESSAGES.noForm)));
    return () => {
      live = false;
    };
  }, [participantId]);

  if (error) return <Alert severity="error">{error}</Alert>;
  if (!consent)
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 3 }}>
        <CircularProgress aria-label={T.title} />
      </Box>
    );
  if (consent.state === 'unavailable') return <Alert severity="info">{T.noForm}</Alert>;
  if (consent.state === 'withdrawn')
    return (
      <Alert severity="info" role="status">
        {T.withdrawnBody}
      </Alert>
    );
  if (signedNow)
    return (
      <Box role="region" aria-labelledby="consent-signed-title">
        <Typography id="consent-signed-title" variant="subtitle1" component="h3">
          {T.signedTitle}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          {T.signedBody(signedNow.versionNumber, new Date(signedNow.signedAt).toLocaleString())}
        </Typography>
        <StepActions>
          <Button variant="outlined" size="large" onClick={() => void downloadOwnCopy(headers())}>
            {T.downloadCopy}
          </Button>
          <Button variant="contained" size="large" onClick={onDone}>
            {T.continue}
          </Button>
        </StepActions>
      </Box>
    );
  return (
    <SignForm
      headers={headers}
      consent={consent}
      onSigned={(signature) => setSignedNow(signature)}
    />
  );
}

function SignForm({
  headers,
  consent,
  onSigned,
}: {
  headers: () => SessionHeaders;
  consent: Loaded;
  onSigned: (signature: { versionNumber: number; signedAt: string }) => void;
}) {
  const version = consent.version;
  const [readToEnd, setReadToEnd] = useState(false);
  const [ticked, setTicked] = useState<Set<string>>(new Set());
  const [fullName, setFullName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const scroller = useRef<HTMLDivElement>(null);

  /** Read to the end: scrolled to the bottom, or the whole form fits without scrolling. */
  const checkScroll = useCallback(() => {
    const box = scroller.current;
    if (box && box.scrollTop + box.clientHeight >= box.scrollHeight - 8) setReadToEnd(true);
  }, []);
  useEffect(() => {
    checkScroll();
  }, [checkScroll]);

  if (!version) return null;
  const statements = version.statements;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy || !version) return;
    if (statements.some((s) => !ticked.has(s)))
      return setError(CONSENT_MESSAGES.statementsIncomplete);
    if (!fullName.trim()) return setError(CONSENT_MESSAGES.fullNameRequired);
    setBusy(true);
    setError(null);
    try {
      const answer = await signConsent(headers(), {
        versionId: version.id,
        statements,
        fullName: fullName.trim(),
      });
      onSigned(answer.signature);
    } catch (cause) {
      setError(errorText(cause, CONSENT_MESSAGES.versionChanged));
      setBusy(false);
    }
  }

  return (
    <Box component="form" noValidate onSubmit={submit} sx={{ display: 'grid', gap: 2 }}>
      <Typography variant="subtitle1" component="h3">
        {T.title} · {T.version(version.number)}
      </Typography>
      <Typography color="text.secondary">
        {consent.reconsent ? T.reconsentIntro : T.intro}
      </Typography>
      {version.kind === 'markdown' ? (
        <Box
          ref={scroller}
          onScroll={checkScroll}
          tabIndex={0}
          role="document"
          aria-label={T.title}
          sx={{
            maxHeight: '45vh',
            overflowY: 'auto',
            border: 1,
            borderColor: 'divider',
            borderRadius: 1,
            px: 2,
            py: 1,
          }}
        >
          <MarkdownView text={version.markdown ?? ''} />
        </Box>
      ) : (
        <Box sx={{ display: 'grid', gap: 1 }}>
          <Typography>{T.pdfForm}</Typography>
          <Button
            variant="outlined"
            onClick={() => {
              void openConsentFormPdf(headers());
            }}
          >
            {T.openPdf}
          </Button>
          <FormControlLabel
            control={
              <Checkbox checked={readToEnd} onChange={(e) => setReadToEnd(e.target.checked)} />
            }
            label={T.pdfRead}
          />
        </Box>
      )}
      {!readToEnd && version.kind === 'markdown' && (
        <Typography variant="body2" color="text.secondary" role="status">
          {T.scrollHint}
        </Typography>
      )}
      {statements.length > 0 && (
        <FormGroup aria-label={T.statementsTitle}>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {T.statementsTitle}
          </Typography>
          {statements.map((statement) => (
            <FormControlLabel
              key={statement}
              disabled={!readToEnd}
              control={
                <Checkbox
                  checked={ticked.has(statement)}
                  onChange={(e) => {
                    const next = new Set(ticked);
                    if (e.target.checked) next.add(statement);
                    else next.delete(statement);
                    setTicked(next);
                  }}
                />
              }
              label={statement}
            />
          ))}
        </FormGroup>
      )}
      <TextField
        label={T.fullNameLabel}
        value={fullName}
        onChange={(e) => setFullName(e.target.value)}
        autoComplete="name"
        required
        disabled={!readToEnd}
        slotProps={{ htmlInput: { maxLength: CONSENT_LIMITS.fullNameMaxChars } }}
      />
      {error && (
        <Alert severity="error" role="alert">
          {error}
        </Alert>
      )}
      <StepActions>
        <Button type="submit" variant="contained" size="large" disabled={!readToEnd || busy}>
          {T.sign}
        </Button>
      </StepActions>
    </Box>
  );
}
