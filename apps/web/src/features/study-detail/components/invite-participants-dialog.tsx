import {
  CONTACT_MESSAGES,
  CSV_MESSAGES,
  formatPhoneInput,
  INVITE_DIALOG_TEXTS,
  INVITE_MESSAGES,
  invitationBodyProblem,
  invitationEmail,
  normalizeEmail,
  type Study,
  validateCsvFile,
} from '@research/contracts';
import { type FormEvent, useRef, useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import { useParticipants } from '../api/get-participants';
import { useSendInvitations } from '../api/send-invitations';
import { useUploadRoster } from '../api/upload-roster';
import { ContactForm, contactRecipients, type RecipientOption } from './contact-form';
import {
  type CsvPreview,
  EMPTY_ROW,
  filledRows,
  hasAnyEmail,
  type InviteRow,
  InviteRows,
  inviteProblem,
  typedRows,
} from './invite-rows';
import { MailDialogFrame, useContactMail, useMailDialogState } from './mail-dialog';
import type { MailMode } from './mode-toggle';
import { messageOf, type Notify, requireSession } from './notify';
import { useListState } from './server-table';

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
  const mail = useMailDialogState(initialMode);
  const [rows, setRows] = useState<InviteRow[]>([EMPTY_ROW]);
  const [inviteIssue, setInviteIssue] = useState<string | null>(null);
  const [csvError, setCsvError] = useState<string | null>(null);
  const [csvPreview, setCsvPreview] = useState<CsvPreview | null>(null);
  const [csvNotice, setCsvNotice] = useState<string | null>(null);
  // Counts file choices (and clears): an answer for a file that was replaced, cleared or
  // cancelled since is dropped instead of filling the rows.
  const fileChoice = useRef(0);

  const roster = useUploadRoster();
  const sendInvitations = useSendInvitations();
  const contactMail = useContactMail(study, 'participants', notify);
  // Recipients come from the server a page at a time; the search reaches every participant.
  const recipientList = useListState<'name'>('name', 'asc');
  const participants = useParticipants(
    study.id,
    { ...recipientList.query, limit: CONTACT_OPTIONS_LIMIT, offset: 0 },
    open && mail.mode === 'contact',
  );
  const options: RecipientOption[] = (participants.data?.participants ?? []).map((p) => ({
    email: p.participantEmail,
    label: [p.firstName, p.lastName].filter(Boolean).join(' ') || undefined,
  }));
  const busy = sendInvitations.isPending || contactMail.isPending;

  /** Every row, the file and its messages go. */
  const clearAll = () => {
    fileChoice.current += 1;
    setRows([EMPTY_ROW]);
    setInviteIssue(null);
    setCsvError(null);
    setCsvPreview(null);
    setCsvNotice(null);
    roster.reset();
  };

  /** Back to a blank dialog, once it has closed: reopening never shows the last attempt. */
  const reset = () => {
    mail.reset();
    clearAll();
    recipientList.setSearchInput('');
  };

  const close = () => {
    if (busy) return;
    onClose();
  };

  const sent = () => {
    reset();
    onClose();
  };

  const readCsv = async (file: File) => {
    const choice = ++fileChoice.current;
    const current = () => choice === fileChoice.current;
    // A new file replaces the last one whatever it holds: the last file's rows, preview and
    // messages go now, so a file with errors can never leave the previous one's addresses in.
    setRows(typedRows);
    setCsvPreview(null);
    setCsvError(null);
    setCsvNotice(null);
    setInviteIssue(null);
    const problem = validateCsvFile(file);
    if (problem) {
      setCsvError(problem);
      return;
    }
    let text: string;
    try {
      text = await readText(file);
    } catch {
      if (current()) setCsvError(CSV_MESSAGES.readFailed);
      return;
    }
    if (!current()) return;
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
      if (!current()) return;
      const parsed: InviteRow[] = (result.participants ?? []).map((row) => ({
        email: normalizeEmail(row.email),
        // As the researcher would have typed it: North American numbers in the invite grouping.
        phone: row.phoneNumber ? formatPhoneInput(row.phoneNumber) : '',
        fromFile: true,
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
    } catch (error) {
      if (current()) setCsvError(csvFailure(error));
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
    mail.review(generated);
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

  const sendInvite = async () => {
    try {
      const result = await sendInvitations.mutateAsync({
        studyId: study.id,
        payload: {
          studyCode: study.studyCode,
          studyName: study.name,
          participants: invitees(),
          emailSubject: mail.draft.subject.trim(),
          emailBody: mail.draft.body.trim(),
        },
      });
      sent();
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
  };

  const send = async () => {
    if (mail.mode === 'invite') {
      if (requireSession(signedIn, notify, INVITE_MESSAGES.authRequired)) await sendInvite();
    } else if (requireSession(signedIn, notify, CONTACT_MESSAGES.authRequired)) {
      await contactMail.send(contactRecipients(mail.contact), mail.draft, sent);
    }
  };

  const inviting = mail.mode === 'invite';

  return (
    <MailDialogFrame
      open={open}
      onClose={close}
      mail={mail}
      title={INVITE_DIALOG_TEXTS.dialogTitle}
      review={{
        title: inviting
          ? INVITE_DIALOG_TEXTS.reviewInvitationTitle
          : INVITE_DIALOG_TEXTS.reviewContactTitle,
        recipientCount: inviting ? invitees().length : contactRecipients(mail.contact).length,
        bodyProblem: inviting ? invitationBodyProblem : undefined,
        busy,
        onSend: send,
      }}
      onExited={reset}
      onContinue={inviting ? continueInvite : mail.continueContact}
      continueDisabled={inviting && !hasAnyEmail(rows)}
    >
      {inviting ? (
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
          onClearAll={clearAll}
        />
      ) : (
        <ContactForm
          draft={mail.contact}
          onChange={mail.setContact}
          options={options}
          loadingOptions={participants.isPending}
          emptyOptionsText={INVITE_DIALOG_TEXTS.noParticipants}
          problem={mail.contactIssue}
          search={{
            value: recipientList.searchInput,
            onChange: recipientList.setSearchInput,
            totalCount: participants.data?.totalCount ?? 0,
          }}
        />
      )}
    </MailDialogFrame>
  );
}
