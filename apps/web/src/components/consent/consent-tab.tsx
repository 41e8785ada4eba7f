import DeleteOutline from '@mui/icons-material/DeleteOutline';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  CONSENT_LIMITS,
  CONSENT_MESSAGES,
  CONSENT_STATE_LABELS,
  type ConsentVersion,
  type Study,
  CONSENT_TAB_TEXTS as T,
} from '@research/contracts';
import { useEffect, useState } from 'react';
import {
  downloadSignatureRecord,
  downloadVersionPdf,
  useConsentOverview,
  useConsentSignatures,
  usePublishConsent,
  useSaveConsentDraft,
  useUploadConsentPdf,
} from '../../lib/consent/consent-api';
import { FilePickerButton } from '../file-picker-button';
import type { Notify } from '../notification-modal';
import { MarkdownView } from './markdown-view';

const when = (iso: string) => new Date(iso).toLocaleString();
const messageOf = (error: unknown) =>
  error instanceof Error && error.message.trim() ? error.message : T.failed;

/**
 * The study screen's Consent tab: the owner writes the form in Markdown with a live preview (or
 * uploads a PDF), lists the statements participants tick, and publishes versions, each time
 * choosing whether existing participants must consent again. Every member sees the versions,
 * the signatures and who is held back.
 */
export function ConsentTab({ study, notify }: { study: Study; notify: Notify }) {
  const overview = useConsentOverview(study.id);
  const owner = study.role === 'main';
  const data = overview.data;
  return (
    <Box sx={{ p: { xs: 2, sm: 3 }, display: 'grid', gap: 3 }}>
      <Box>
        <Typography variant="h6" component="h2">
          {T.title}
        </Typography>
        {data && (
          <Alert severity={data.consentRequired ? 'info' : 'warning'} sx={{ mt: 1 }}>
            {data.consentRequired ? T.requiredOn : T.requiredOff}
            {data.consentRequired && data.versions.length === 0 ? ` ${T.noVersion}` : ''}
          </Alert>
        )}
        {!owner && (
          <Typography color="text.secondary" sx={{ mt: 1 }}>
            {T.readOnly}
          </Typography>
        )}
      </Box>
      {overview.isError && <Alert severity="error">{messageOf(overview.error)}</Alert>}
      {owner && data && (
        <DraftEditor
          studyId={study.id}
          draft={data.draft ?? data.versions[0] ?? null}
          nextNumber={(data.versions[0]?.number ?? 0) + 1}
          hasVersions={data.versions.length > 0}
          notify={notify}
        />
      )}
      {data && (
        <Versions
          studyId={study.id}
          versions={data.versions}
          requiredNumber={data.requiredNumber}
        />
      )}
      <Signatures studyId={study.id} />
    </Box>
  );
}

function DraftEditor({
  studyId,
  draft,
  nextNumber,
  hasVersions,
  notify,
}: {
  studyId: string;
  draft: ConsentVersion | null;
  nextNumber: number;
  hasVersions: boolean;
  notify: Notify;
}) {
  const [markdown, setMarkdown] = useState(draft?.markdown ?? '');
  const [statements, setStatements] = useState<string[]>(draft?.statements ?? []);
  const [pdf, setPdf] = useState<File | null>(null);
  const [publishing, setPublishing] = useState(false);
  const [reconsent, setReconsent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const save = useSaveConsentDraft(studyId);
  const upload = useUploadConsentPdf(studyId);
  const publish = usePublishConsent(studyId);
  const draftId = draft?.id;

  // A draft saved elsewhere (another tab) replaces the text once, when it arrives.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when another draft arrives
  useEffect(() => {
    if (draft) {
      setMarkdown(draft.markdown ?? '');
      setStatements(draft.statements);
    }
  }, [draftId]);

  const cleaned = statements.map((s) => s.trim()).filter(Boolean);

  async function saveDraft() {
    setError(null);
    try {
      if (pdf) await upload.mutateAsync({ file: pdf, statements: cleaned });
      else await save.mutateAsync({ markdown, statements: cleaned });
      return true;
    } catch (cause) {
      setError(messageOf(cause));
      return false;
    }
  }

  async function confirmPublish() {
    if (!(await saveDraft())) return setPublishing(false);
    try {
      const answer = await publish.mutateAsync(hasVersions ? reconsent : true);
      notify('success', T.title, answer.message);
      setPublishing(false);
      setPdf(null);
    } catch (cause) {
      setError(messageOf(cause));
      setPublishing(false);
    }
  }

  const busy = save.isPending || upload.isPending || publish.isPending;
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 2.5 }, display: 'grid', gap: 2 }}>
      <Typography variant="subtitle1" component="h3">
        {T.editorTitle}
      </Typography>
      {pdf ? (
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
          <Typography sx={{ overflowWrap: 'anywhere' }}>{T.pdfChosen(pdf.name)}</Typography>
          <Button onClick={() => setPdf(null)}>{T.pdfClear}</Button>
        </Box>
      ) : (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
          <TextField
            label={T.markdownLabel}
            value={markdown}
            onChange={(e) => setMarkdown(e.target.value)}
            multiline
            minRows={10}
            helperText={T.markdownHelp}
            slotProps={{ htmlInput: { maxLength: CONSENT_LIMITS.markdownMaxChars } }}
          />
          <Box
            role="region"
            aria-label={T.preview}
            sx={{ border: 1, borderColor: 'divider', borderRadius: 1, px: 2, py: 1, minWidth: 0 }}
          >
            <Typography variant="overline" color="text.secondary">
              {T.preview}
            </Typography>
            {markdown.trim() ? (
              <MarkdownView text={markdown} />
            ) : (
              <Typography color="text.secondary">{T.emptyPreview}</Typography>
            )}
          </Box>
        </Box>
      )}
      <Box sx={{ display: 'grid', gap: 1 }}>
        <Typography variant="subtitle2" component="h4">
          {T.statementsTitle}
        </Typography>
        {statements.map((statement, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the rows are edited in place by position
          <Box key={index} sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
            <TextField
              label={T.statementLabel(index + 1)}
              value={statement}
              onChange={(e) =>
                setStatements(statements.map((s, i) => (i === index ? e.target.value : s)))
              }
              fullWidth
              size="small"
              slotProps={{ htmlInput: { maxLength: CONSENT_LIMITS.statementMaxChars } }}
            />
            <IconButton
              aria-label={T.removeStatement(index + 1)}
              onClick={() => setStatements(statements.filter((_, i) => i !== index))}
            >
              <DeleteOutline />
            </IconButton>
          </Box>
        ))}
        {statements.length < CONSENT_LIMITS.maxStatements && (
          <Box>
            <Button onClick={() => setStatements([...statements, ''])}>{T.addStatement}</Button>
          </Box>
        )}
      </Box>
      <Box>
        <Typography variant="subtitle2" component="h4">
          {T.pdfTitle}
        </Typography>
        <FilePickerButton
          variant="outlined"
          sx={{ mt: 1 }}
          accept="application/pdf,.pdf"
          onFiles={([file]) => setPdf(file ?? null)}
        >
          {T.pdfChoose}
        </FilePickerButton>
      </Box>
      {error && (
        <Alert severity="error" role="alert">
          {error}
        </Alert>
      )}
      <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', justifyContent: 'flex-end' }}>
        <Button
          variant="outlined"
          disabled={busy}
          onClick={async () => {
            if (await saveDraft()) notify('success', T.title, CONSENT_MESSAGES.draftSaved);
          }}
        >
          {T.saveDraft}
        </Button>
        <Button variant="contained" disabled={busy} onClick={() => setPublishing(true)}>
          {T.publish}
        </Button>
      </Box>
      <Dialog
        open={publishing}
        onClose={() => !busy && setPublishing(false)}
        aria-labelledby="publish-consent-title"
      >
        <DialogTitle id="publish-consent-title">{T.publishTitle}</DialogTitle>
        <DialogContent>
          <DialogContentText>{T.publishBody(nextNumber)}</DialogContentText>
          {hasVersions && (
            <Box sx={{ mt: 2 }}>
              <FormControlLabel
                control={
                  <Checkbox checked={reconsent} onChange={(e) => setReconsent(e.target.checked)} />
                }
                label={T.reconsentLabel}
              />
              <FormHelperText>{T.reconsentHelp}</FormHelperText>
            </Box>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setPublishing(false)} disabled={busy}>
            {T.cancel}
          </Button>
          <Button variant="contained" onClick={() => void confirmPublish()} disabled={busy}>
            {T.publish}
          </Button>
        </DialogActions>
      </Dialog>
    </Paper>
  );
}

function Versions({
  studyId,
  versions,
  requiredNumber,
}: {
  studyId: string;
  versions: ConsentVersion[];
  requiredNumber: number | null;
}) {
  return (
    <Box component="section" aria-labelledby="consent-versions-title">
      <Typography id="consent-versions-title" variant="subtitle1" component="h3">
        {T.versionsTitle}
      </Typography>
      {versions.length === 0 && <Typography color="text.secondary">{T.noVersions}</Typography>}
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1 }}>
        {versions.map((version, index) => (
          <Paper component="li" variant="outlined" key={version.id} sx={{ p: 1.5 }}>
            <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
              <Typography sx={{ fontWeight: 600 }}>
                {T.versionLabel(version.number ?? 0)}
              </Typography>
              {index === 0 && <Chip size="small" color="primary" label={T.inForce} />}
              {version.kind === 'pdf' && (
                <Button
                  size="small"
                  onClick={() =>
                    void downloadVersionPdf(studyId, version.id, version.pdfName ?? 'consent.pdf')
                  }
                >
                  {T.openPdf}
                </Button>
              )}
            </Box>
            <Typography variant="body2" color="text.secondary">
              {T.versionMeta(
                version.publishedAt ? when(version.publishedAt) : '',
                version.signatureCount,
                version.reconsentRequired && version.number !== 1,
              )}
            </Typography>
            <Typography
              variant="caption"
              color="text.secondary"
              sx={{ overflowWrap: 'anywhere', display: 'block' }}
            >
              {T.sha256}: {version.sha256}
            </Typography>
            {requiredNumber !== null && version.number === requiredNumber && index !== 0 && (
              <Typography variant="caption">{T.inForce}</Typography>
            )}
          </Paper>
        ))}
      </Box>
    </Box>
  );
}

function Signatures({ studyId }: { studyId: string }) {
  const signatures = useConsentSignatures(studyId);
  const data = signatures.data;
  const C = T.signatureColumns;
  return (
    <Box component="section" aria-labelledby="consent-signatures-title">
      <Typography id="consent-signatures-title" variant="subtitle1" component="h3">
        {T.signaturesTitle}
      </Typography>
      {data && data.signatures.length === 0 && (
        <Typography color="text.secondary">{T.noSignatures}</Typography>
      )}
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1 }}>
        {data?.signatures.map((s) => (
          <Paper component="li" variant="outlined" key={s.id} sx={{ p: 1.5 }}>
            <Box
              component="dl"
              sx={{
                m: 0,
                display: 'grid',
                gridTemplateColumns: { xs: '1fr', sm: 'auto 1fr' },
                columnGap: 2,
                '& dt': { color: 'text.secondary', typography: 'body2' },
                '& dd': { m: 0, overflowWrap: 'anywhere' },
              }}
            >
              <dt>{C.participant}</dt>
              <dd>{s.participantId}</dd>
              <dt>{C.name}</dt>
              <dd>{s.fullName}</dd>
              <dt>{C.version}</dt>
              <dd>{s.versionNumber}</dd>
              <dt>{C.signedAt}</dt>
              <dd>{when(s.signedAt)}</dd>
              <dt>{C.address}</dt>
              <dd>{s.ip ?? '—'}</dd>
            </Box>
            <Button
              size="small"
              sx={{ mt: 1 }}
              aria-label={`${C.record} ${s.participantId} v${s.versionNumber}`}
              onClick={() =>
                void downloadSignatureRecord(
                  studyId,
                  s.id,
                  `consent-${s.participantId}-v${s.versionNumber}.pdf`,
                )
              }
            >
              {T.downloadRecord}
            </Button>
          </Paper>
        ))}
      </Box>
      {data && data.heldBack.length > 0 && (
        <Box sx={{ mt: 2 }}>
          <Typography variant="subtitle2" component="h4">
            {T.heldBackTitle}
          </Typography>
          <Box component="ul" sx={{ pl: 2, m: 0 }}>
            {data.heldBack.map((h) => (
              <li key={h.participantId}>
                {h.participantId}:{' '}
                {h.state === 'pending'
                  ? CONSENT_STATE_LABELS.pending
                  : CONSENT_STATE_LABELS.withdrawn}
              </li>
            ))}
          </Box>
        </Box>
      )}
    </Box>
  );
}
