import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import {
  CONTACT_MESSAGES,
  CSV_MESSAGES,
  formatPhoneInput,
  INVITE_DIALOG_TEXTS,
  INVITE_MESSAGES,
  invitationBodyProblem,
  invitationEmail,
  NOTIFICATION_TITLES,
  normalizeEmail,
  STUDY_DETAIL_TEXTS,
  type Study,
  validateCsvFile,
} from '@research/contracts';
import { type FormEvent, useId, useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import { useParticipants } from '../api/get-participants';
import { useSendContactEmail } from '../api/send-contact-email';
import { useSendInvitations } from '../api/send-invitations';
import { useUploadRoster } from '../api/upload-roster';
import {
  type ContactDraft,
  ContactForm,
  contactProblem,
  contactRecipients,
  EMPTY_CONTACT_DRAFT,
  type RecipientOption,
} from './contact-form';
import { type EmailDraft, EmailReview } from './email-review';
import {
  type CsvPreview,
  EMPTY_ROW,
  filledRows,
  hasAnyEmail,
  type InviteRow,
  InviteRows,
  inviteProblem,
} from './invite-rows';
import { type MailMode, ModeToggle } from './mode-toggle';
import { messageOf, type Notify } from './notify';
import { useListState } from './server-table';

type Step = 'compose' | 'review';

/** How many participants the contact list offers; more are reached by typing their address. */
const CONTACT_OPTIONS_LIMIT = 500;

export interface InviteParticipantsDialogProps {
  open: boolean;
  study: Study;
  signedIn: boolean;
  notify: Notify;
  onClose: () => void;
  /** Open in contact mode (e.g. from a participant's row); invite otherwise. */
  initialMode?: MailMode;
}

/** The file's text through FileReader, which every browser (and jsdom) has. */
function readText(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error);
    reader.readAsText(file);
  });
}

/** The server's per-row CSV messages (details.fields), or its single message. */
function csvFailure(error: unknown): string {
  if (error instanceof ApiError && error.fields.length > 0) {
    return error.fields.map((field) => field.message).join('\n');
  }
  return messageOf(error, CSV_MESSAGES.parseFailed);
}

/**
 * 'Invite/Contact Participants': compose → Review & Edit → send, in either
 * mode. Validation messages appear once, inline in the dialog; only the outcome of sending (and
 * a missing session) is a notification.
 */
export function InviteParticipantsDialog({
  open,
  study,
  signedIn,
  notify,
  onClose,
  initialMode = 'invite',
}: InviteParticipantsDialogProps) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  const [mode, setMode] = useState<MailMode>(initialMode);
  const [step, setStep] = useState<Step>('compose');
  const [rows, setRows] = useState<InviteRow[]>([EMPTY_ROW]);
  const [inviteIssue, setInviteIssue] = useState<string | null>(null);
  const [csvError, setCsvError] = useState<string | null>(null);
  const [csvPreview, setCsvPreview] = useState<CsvPreview | null>(null);
  const [csvNotice, setCsvNotice] = useState<string | null>(null);
  const [contact, setContact] = useState<ContactDraft>(EMPTY_CONTACT_DRAFT);
  const [contactIssue, setContactIssue] = useState<string | null>(null);
  const [draft, setDraft] = useState<EmailDraft>({ subject: '', body: '' });

  const roster = useUploadRoster();
  const sendInvitations = useSendInvitations();
  const sendContact = useSendContactEmail();
  // Recipients come from the server a page at a time; the search reaches every participant.
  const recipientList = useListState<'name'>('name', 'asc');
  const participants = useParticipants(
    study.id,
    { ...recipientList.query, limit: CONTACT_OPTIONS_LIMIT, offset: 0 },
    open && mode === 'contact',
  );
  const options: RecipientOption[] = (participants.data?.participants ?? []).map((p) => ({
    email: p.participantEmail,
    label: [p.firstName, p.lastName].filter(Boolean).join(' ') || undefined,
  }));
  const busy = sendInvitations.isPending || sendContact.isPending;

  const reset = () => {
    setMode(initialMode);
    setStep('compose');
    setRows([EMPTY_ROW]);
    setInviteIssue(null);
    setCsvError(null);
    setCsvPreview(null);
    setCsvNotice(null);
    setContact(EMPTY_CONTACT_DRAFT);
    recipientList.setSearchInput('');
    setContactIssue(null);
    setDraft({ subject: '', body: '' });
    roster.reset();
  };

  const close = () => {
    if (busy) return;
    onClose();
  };

  const readCsv = async (file: File) => {
    setCsvError(null);
    setCsvNotice(null);
    const problem = validateCsvFile(file);
    if (problem) {
      setCsvError(problem);
      return;
    }
    let text: string;
    try {
      text = await readText(file);
    } catch {
      setCsvError(CSV_MESSAGES.readFailed);
      return;
    }
    if (text.replace(/^\uFEFF/, '').trim() === '') {
      setCsvError(CSV_MESSAGES.empty);
      return;
    }
    try {
      // The server parses (quoted fields, BOM, CRLF, ';' or ','), checks every row with the
      // contracts' rules and stores nothing in a dry run; the rows fill the dialog. As an
      // invitation check, people already pending stay in: inviting them makes them 'invited'.
      const result = await roster.mutateAsync({
        studyId: study.id,
        studyCode: study.studyCode,
        file,
        dryRun: true,
        intent: 'invite',
      });
      const parsed: InviteRow[] = (result.participants ?? []).map((row) => ({
        email: normalizeEmail(row.email),
        // As the researcher would have typed it: North American numbers in the invite grouping.
        phone: row.phoneNumber ? formatPhoneInput(row.phoneNumber) : '',
      }));
      // Participants of the study (and repeats in the file) are left out by the server and
      // listed, so the researcher sees why fewer rows arrived.
      const skipped = result.duplicates.map((duplicate) => duplicate.message);
      setCsvNotice(skipped.length > 0 ? INVITE_DIALOG_TEXTS.csvSkipped(skipped) : null);
      if (parsed.length === 0) {
        if (skipped.length === 0) setCsvError(CSV_MESSAGES.empty);
        return;
      }
      setCsvPreview({ fileName: file.name, rows: parsed });
      setRows((current) => {
        const kept = filledRows(current);
        const seen = new Set(kept.map((row) => normalizeEmail(row.email)));
        const added = parsed.filter((row) => !seen.has(row.email) && seen.add(row.email));
        return [...kept, ...added];
      });
      setInviteIssue(null);
    } catch (error) {
      setCsvError(csvFailure(error));
    }
  };

  const continueInvite = (event: FormEvent) => {
    event.preventDefault();
    const problem = inviteProblem(rows, study.name);
    setInviteIssue(problem);
    if (problem) return;
    const generated = invitationEmail({
      studyName: study.name,
      description: study.description,
      duration: study.duration,
      studyCode: study.studyCode,
      baseUrl: window.location.origin,
    });
    setDraft(generated);
    setStep('review');
  };

  const continueContact = (event: FormEvent) => {
    event.preventDefault();
    const problem = contactProblem(contact);
    setContactIssue(problem);
    if (problem) return;
    setDraft({ subject: contact.title.trim(), body: contact.content.trim() });
    setStep('review');
  };

  const invitees = () => {
    const seen = new Set<string>();
    return filledRows(rows)
      .map((row) => ({ email: normalizeEmail(row.email), phone: row.phone.trim() }))
      .filter((row) => !seen.has(row.email) && seen.add(row.email))
      .map((row) =>
        row.phone ? { email: row.email, phoneNumber: row.phone } : { email: row.email },
      );
  };

  const send = async () => {
    if (mode === 'invite') {
      if (!signedIn) {
        notify('error', NOTIFICATION_TITLES.authenticationError, INVITE_MESSAGES.authRequired);
        return;
      }
      try {
        const result = await sendInvitations.mutateAsync({
          studyId: study.id,
          payload: {
            studyCode: study.studyCode,
            studyName: study.name,
            participants: invitees(),
            emailSubject: draft.subject.trim(),
            emailBody: draft.body.trim(),
          },
        });
        reset();
        onClose();
        notify(
          'success',
          INVITE_MESSAGES.sentTitle,
          INVITE_DIALOG_TEXTS.invitationOutcome(result.sentCount, result.skippedCount),
        );
      } catch (error) {
        notify(
          'error',
          INVITE_MESSAGES.sendFailedTitle,
          error instanceof ApiError
            ? messageOf(error, INVITE_MESSAGES.sendFailed)
            : INVITE_MESSAGES.sendUnexpected,
        );
      }
      return;
    }
    if (!signedIn) {
      notify('error', NOTIFICATION_TITLES.authenticationError, CONTACT_MESSAGES.authRequired);
      return;
    }
    try {
      const result = await sendContact.mutateAsync({
        studyId: study.id,
        payload: {
          studyCode: study.studyCode,
          audience: 'participants',
          recipients: contactRecipients(contact),
          emailSubject: draft.subject.trim(),
          emailBody: draft.body.trim(),
        },
      });
      reset();
      onClose();
      notify(
        'success',
        CONTACT_MESSAGES.sentTitle,
        INVITE_DIALOG_TEXTS.emailsSent(result.sentCount),
      );
    } catch (error) {
      notify(
        'error',
        CONTACT_MESSAGES.sendFailedTitle,
        messageOf(error, INVITE_DIALOG_TEXTS.sendFailed),
      );
    }
  };

  const recipientCount = mode === 'invite' ? invitees().length : contactRecipients(contact).length;

  return (
    <Dialog
      open={open}
      onClose={close}
      aria-labelledby={titleId}
      maxWidth="md"
      fullWidth
      fullScreen={fullScreen}
    >
      {step === 'review' ? (
        <EmailReview
          titleId={titleId}
          title={
            mode === 'invite'
              ? INVITE_DIALOG_TEXTS.reviewInvitationTitle
              : INVITE_DIALOG_TEXTS.reviewContactTitle
          }
          draft={draft}
          onChange={setDraft}
          recipientCount={recipientCount}
          bodyProblem={mode === 'invite' ? invitationBodyProblem : undefined}
          sendLabel={
            mode === 'invite' ? INVITE_DIALOG_TEXTS.sendInvitations : INVITE_DIALOG_TEXTS.sendEmails
          }
          busy={busy}
          onBack={() => setStep('compose')}
          onSend={send}
        />
      ) : (
        <Box
          component="form"
          noValidate
          onSubmit={mode === 'invite' ? continueInvite : continueContact}
        >
          <DialogTitle id={titleId}>{INVITE_DIALOG_TEXTS.dialogTitle}</DialogTitle>
          <DialogContent dividers>
            <ModeToggle mode={mode} onChange={setMode} />
            {mode === 'invite' ? (
              <InviteRows
                rows={rows}
                onChange={(next) => {
                  setRows(next);
                  if (inviteIssue) setInviteIssue(null);
                }}
                problem={inviteIssue}
                csvBusy={roster.isPending}
                csvError={csvError}
                csvNotice={csvNotice}
                csvPreview={csvPreview}
                onCsvFile={readCsv}
              />
            ) : (
              <ContactForm
                draft={contact}
                onChange={(next) => {
                  setContact(next);
                  if (contactIssue) setContactIssue(null);
                }}
                options={options}
                loadingOptions={participants.isPending}
                emptyOptionsText={INVITE_DIALOG_TEXTS.noParticipants}
                problem={contactIssue}
                search={{
                  value: recipientList.searchInput,
                  onChange: recipientList.setSearchInput,
                  totalCount: participants.data?.totalCount ?? 0,
                }}
              />
            )}
          </DialogContent>
          <DialogActions sx={{ px: 3, py: 2 }}>
            <Button onClick={close}>{STUDY_DETAIL_TEXTS.cancel}</Button>
            <Button
              type="submit"
              variant="contained"
              disabled={mode === 'invite' && !hasAnyEmail(rows)}
            >
              {INVITE_DIALOG_TEXTS.continue}
            </Button>
          </DialogActions>
        </Box>
      )}
    </Dialog>
  );
}
