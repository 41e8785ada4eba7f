import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import {
  COLLABORATOR_DIALOG_TEXTS,
  CONTACT_MESSAGES,
  collaboratorCredentialsBlock,
  collaboratorInvitationDefaults,
  INVITE_DIALOG_TEXTS,
  INVITE_MESSAGES,
  isValidEmail,
  normalizeEmail,
  parseEmailList,
  type Study,
} from '@research/contracts';
import { type FormEvent, useState } from 'react';
import { useSecureAuth } from '../../../lib/auth/auth-provider';
import { useMembers } from '../api/get-members';
import { useSendCollaboratorInvitations } from '../api/send-collaborator-invitations';
import { ContactForm, contactRecipients } from './contact-form';
import { MailDialogFrame, useContactMail, useMailDialogState } from './mail-dialog';
import { messageOf, type Notify, requireSession } from './notify';

interface InviteDraft {
  emails: string;
  subject: string;
  message: string;
}

export interface CollaboratorsDialogProps {
  open: boolean;
  study: Study;
  signedIn: boolean;
  notify: Notify;
  onClose: () => void;
}

/** The first rule an invitation draft breaks, or null. */
function inviteProblem(draft: InviteDraft): string | null {
  const emails = parseEmailList(draft.emails);
  if (emails.length === 0) return CONTACT_MESSAGES.selectRecipient;
  if (emails.some((email) => !isValidEmail(email))) return INVITE_MESSAGES.validEmails;
  return null;
}

/**
 * 'Invite/Contact Collaborators'. Invite: addresses, the default title
 * 'Collaborator Invitation: {study name}' and an optional message (blank = the default text);
 * the server appends the code, the password and the join link, which the review shows without the
 * password. Contact: like contacting participants, over the study's members.
 */
export function CollaboratorsDialog({
  open,
  study,
  signedIn,
  notify,
  onClose,
}: CollaboratorsDialogProps) {
  const { user } = useSecureAuth();
  const defaults = collaboratorInvitationDefaults(study.name);
  const emptyInvite: InviteDraft = { emails: '', subject: defaults.subject, message: '' };

  const mail = useMailDialogState('invite');
  const [invite, setInvite] = useState<InviteDraft>(emptyInvite);
  const [inviteIssue, setInviteIssue] = useState<string | null>(null);

  const members = useMembers(study.id, open && mail.mode === 'contact');
  const sendInvitations = useSendCollaboratorInvitations();
  const contactMail = useContactMail(study, 'collaborators', notify);
  const busy = sendInvitations.isPending || contactMail.isPending;
  const options = (members.data ?? [])
    .filter((member) => member.email.toLowerCase() !== user?.email?.toLowerCase())
    .map((member) => ({ email: member.email, label: member.name || undefined }));

  const reset = () => {
    mail.reset();
    setInvite(emptyInvite);
    setInviteIssue(null);
  };

  const close = () => {
    if (!busy) onClose();
  };

  const sent = () => {
    reset();
    onClose();
  };

  const continueInvite = (event: FormEvent) => {
    event.preventDefault();
    const problem = inviteProblem(invite);
    setInviteIssue(problem);
    if (problem) return;
    mail.review({
      subject: invite.subject.trim() || defaults.subject,
      body: invite.message.trim() || defaults.body,
    });
  };

  const inviteRecipients = () => [...new Set(parseEmailList(invite.emails).map(normalizeEmail))];

  const sendInvite = async () => {
    try {
      const result = await sendInvitations.mutateAsync({
        studyId: study.id,
        payload: {
          studyCode: study.studyCode,
          studyName: study.name,
          recipients: inviteRecipients(),
          emailSubject: mail.draft.subject.trim(),
          emailBody: mail.draft.body.trim(),
          invitationType: 'collaborator',
        },
      });
      sent();
      notify(
        'success',
        INVITE_MESSAGES.sentTitle,
        COLLABORATOR_DIALOG_TEXTS.invitationOutcome(
          result.sentCount,
          result.alreadyMembers,
          result.skippedCount,
        ),
      );
    } catch (error) {
      notify(
        'error',
        INVITE_MESSAGES.sendFailedTitle,
        messageOf(error, INVITE_MESSAGES.sendFailed),
      );
    }
  };

  const send = async () => {
    // Either mode needs a session; this dialog says so in the contact wording for both.
    if (!requireSession(signedIn, notify, CONTACT_MESSAGES.authRequired)) return;
    if (mail.mode === 'invite') await sendInvite();
    else await contactMail.send(contactRecipients(mail.contact), mail.draft, sent);
  };

  const credentials = collaboratorCredentialsBlock({
    studyCode: study.studyCode,
    password: null,
    baseUrl: window.location.origin,
  });
  const inviting = mail.mode === 'invite';

  return (
    <MailDialogFrame
      open={open}
      onClose={close}
      mail={mail}
      title={COLLABORATOR_DIALOG_TEXTS.dialogTitle}
      review={{
        title: inviting
          ? COLLABORATOR_DIALOG_TEXTS.reviewInvitationTitle
          : COLLABORATOR_DIALOG_TEXTS.reviewContactTitle,
        recipientCount: inviting
          ? inviteRecipients().length
          : contactRecipients(mail.contact).length,
        note: inviting ? COLLABORATOR_DIALOG_TEXTS.credentialsNote(credentials) : undefined,
        busy,
        onSend: send,
      }}
      onExited={reset}
      onContinue={inviting ? continueInvite : mail.continueContact}
    >
      {inviting ? (
        <InviteFields
          invite={invite}
          issue={inviteIssue}
          onChange={(next) => {
            // Only new addresses can answer the problem shown.
            if (next.emails !== invite.emails) setInviteIssue(null);
            setInvite(next);
          }}
        />
      ) : (
        <ContactForm
          draft={mail.contact}
          onChange={mail.setContact}
          options={options}
          loadingOptions={members.isPending}
          emptyOptionsText={COLLABORATOR_DIALOG_TEXTS.noMembers}
          problem={mail.contactIssue}
          allowExtras={false}
        />
      )}
    </MailDialogFrame>
  );
}

interface InviteFieldsProps {
  invite: InviteDraft;
  issue: string | null;
  onChange: (next: InviteDraft) => void;
}

/** The collaborator invitation: addresses, subject and an optional message. */
function InviteFields({ invite, issue, onChange }: InviteFieldsProps) {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      {issue && (
        <Alert severity="warning" role="alert">
          {issue}
        </Alert>
      )}
      <TextField
        label={COLLABORATOR_DIALOG_TEXTS.emails}
        helperText={COLLABORATOR_DIALOG_TEXTS.emailsHelper}
        value={invite.emails}
        onChange={(event) => onChange({ ...invite, emails: event.target.value })}
        error={issue !== null}
        required
        fullWidth
      />
      <TextField
        label={INVITE_DIALOG_TEXTS.subject}
        value={invite.subject}
        onChange={(event) => onChange({ ...invite, subject: event.target.value })}
        fullWidth
      />
      <TextField
        label={COLLABORATOR_DIALOG_TEXTS.message}
        helperText={COLLABORATOR_DIALOG_TEXTS.messageHelper}
        value={invite.message}
        onChange={(event) => onChange({ ...invite, message: event.target.value })}
        multiline
        minRows={4}
        fullWidth
      />
    </Box>
  );
}
