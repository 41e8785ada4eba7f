import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useTheme } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import {
  COLLABORATOR_DIALOG_TEXTS,
  CONTACT_MESSAGES,
  collaboratorCredentialsBlock,
  collaboratorInvitationDefaults,
  INVITE_DIALOG_TEXTS,
  INVITE_MESSAGES,
  isValidEmail,
  NOTIFICATION_TITLES,
  normalizeEmail,
  parseEmailList,
  STUDY_DETAIL_TEXTS,
  type Study,
} from '@research/contracts';
import { type FormEvent, useId, useState } from 'react';
import { useSecureAuth } from '../../../lib/auth/auth-provider';
import { useMembers } from '../api/get-members';
import { useSendCollaboratorInvitations } from '../api/send-collaborator-invitations';
import { useSendContactEmail } from '../api/send-contact-email';
import {
  type ContactDraft,
  ContactForm,
  contactProblem,
  contactRecipients,
  EMPTY_CONTACT_DRAFT,
} from './contact-form';
import { type EmailDraft, EmailReview } from './email-review';
import { type MailMode, ModeToggle } from './mode-toggle';
import { messageOf, type Notify } from './notify';

type Step = 'compose' | 'review';

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
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  const { user } = useSecureAuth();
  const defaults = collaboratorInvitationDefaults(study.name);
  const emptyInvite: InviteDraft = { emails: '', subject: defaults.subject, message: '' };

  const [mode, setMode] = useState<MailMode>('invite');
  const [step, setStep] = useState<Step>('compose');
  const [invite, setInvite] = useState<InviteDraft>(emptyInvite);
  const [inviteIssue, setInviteIssue] = useState<string | null>(null);
  const [contact, setContact] = useState<ContactDraft>(EMPTY_CONTACT_DRAFT);
  const [contactIssue, setContactIssue] = useState<string | null>(null);
  const [draft, setDraft] = useState<EmailDraft>({ subject: '', body: '' });

  const members = useMembers(study.id, open && mode === 'contact');
  const sendInvitations = useSendCollaboratorInvitations();
  const sendContact = useSendContactEmail();
  const busy = sendInvitations.isPending || sendContact.isPending;
  const options = (members.data ?? [])
    .filter((member) => member.email.toLowerCase() !== user?.email?.toLowerCase())
    .map((member) => ({ email: member.email, label: member.name || undefined }));

  const reset = () => {
    setMode('invite');
    setStep('compose');
    setInvite(emptyInvite);
    setInviteIssue(null);
    setContact(EMPTY_CONTACT_DRAFT);
    setContactIssue(null);
    setDraft({ subject: '', body: '' });
  };

  const close = () => {
    if (!busy) onClose();
  };

  const continueInvite = (event: FormEvent) => {
    event.preventDefault();
    const problem = inviteProblem(invite);
    setInviteIssue(problem);
    if (problem) return;
    setDraft({
      subject: invite.subject.trim() || defaults.subject,
      body: invite.message.trim() || defaults.body,
    });
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

  const inviteRecipients = () => [...new Set(parseEmailList(invite.emails).map(normalizeEmail))];

  const send = async () => {
    if (!signedIn) {
      notify('error', NOTIFICATION_TITLES.authenticationError, CONTACT_MESSAGES.authRequired);
      return;
    }
    try {
      if (mode === 'invite') {
        const result = await sendInvitations.mutateAsync({
          studyId: study.id,
          payload: {
            studyCode: study.studyCode,
            studyName: study.name,
            recipients: inviteRecipients(),
            emailSubject: draft.subject.trim(),
            emailBody: draft.body.trim(),
            invitationType: 'collaborator',
          },
        });
        reset();
        onClose();
        notify(
          'success',
          INVITE_MESSAGES.sentTitle,
          COLLABORATOR_DIALOG_TEXTS.invitationOutcome(
            result.sentCount,
            result.alreadyMembers,
            result.skippedCount,
          ),
        );
      } else {
        const result = await sendContact.mutateAsync({
          studyId: study.id,
          payload: {
            studyCode: study.studyCode,
            audience: 'collaborators',
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
      }
    } catch (error) {
      if (mode === 'invite') {
        notify(
          'error',
          INVITE_MESSAGES.sendFailedTitle,
          messageOf(error, INVITE_MESSAGES.sendFailed),
        );
      } else {
        notify(
          'error',
          CONTACT_MESSAGES.sendFailedTitle,
          messageOf(error, INVITE_DIALOG_TEXTS.sendFailed),
        );
      }
    }
  };

  const credentials = collaboratorCredentialsBlock({
    studyCode: study.studyCode,
    password: null,
    baseUrl: window.location.origin,
  });

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
              ? COLLABORATOR_DIALOG_TEXTS.reviewInvitationTitle
              : COLLABORATOR_DIALOG_TEXTS.reviewContactTitle
          }
          draft={draft}
          onChange={setDraft}
          recipientCount={
            mode === 'invite' ? inviteRecipients().length : contactRecipients(contact).length
          }
          note={
            mode === 'invite' ? COLLABORATOR_DIALOG_TEXTS.credentialsNote(credentials) : undefined
          }
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
          <DialogTitle id={titleId}>{COLLABORATOR_DIALOG_TEXTS.dialogTitle}</DialogTitle>
          <DialogContent dividers>
            <ModeToggle mode={mode} onChange={setMode} />
            {mode === 'invite' ? (
              <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
                {inviteIssue && (
                  <Alert severity="warning" role="alert">
                    {inviteIssue}
                  </Alert>
                )}
                <TextField
                  label={COLLABORATOR_DIALOG_TEXTS.emails}
                  helperText={COLLABORATOR_DIALOG_TEXTS.emailsHelper}
                  value={invite.emails}
                  onChange={(event) => {
                    setInvite({ ...invite, emails: event.target.value });
                    setInviteIssue(null);
                  }}
                  error={inviteIssue !== null}
                  required
                  fullWidth
                />
                <TextField
                  label={INVITE_DIALOG_TEXTS.subject}
                  value={invite.subject}
                  onChange={(event) => setInvite({ ...invite, subject: event.target.value })}
                  fullWidth
                />
                <TextField
                  label={COLLABORATOR_DIALOG_TEXTS.message}
                  helperText={COLLABORATOR_DIALOG_TEXTS.messageHelper}
                  value={invite.message}
                  onChange={(event) => setInvite({ ...invite, message: event.target.value })}
                  multiline
                  minRows={4}
                  fullWidth
                />
              </Box>
            ) : (
              <ContactForm
                draft={contact}
                onChange={(next) => {
                  setContact(next);
                  if (contactIssue) setContactIssue(null);
                }}
                options={options}
                loadingOptions={members.isPending}
                emptyOptionsText={COLLABORATOR_DIALOG_TEXTS.noMembers}
                problem={contactIssue}
                allowExtras={false}
              />
            )}
          </DialogContent>
          <DialogActions sx={{ px: 3, py: 2 }}>
            <Button onClick={close}>{STUDY_DETAIL_TEXTS.cancel}</Button>
            <Button type="submit" variant="contained">
              {INVITE_DIALOG_TEXTS.continue}
            </Button>
          </DialogActions>
        </Box>
      )}
    </Dialog>
  );
}
