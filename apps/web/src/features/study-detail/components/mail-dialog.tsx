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
  INVITE_DIALOG_TEXTS,
  STUDY_DETAIL_TEXTS,
  type Study,
} from '@research/contracts';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { useSendContactEmail } from '../api/send-contact-email';
import { type ContactDraft, contactProblem, EMPTY_CONTACT_DRAFT } from './contact-form';
import { type EmailDraft, EmailReview, type EmailReviewProps } from './email-review';
import { type MailMode, ModeToggle } from './mode-toggle';
import { messageOf, type Notify } from './notify';

const EMPTY_DRAFT: EmailDraft = { subject: '', body: '' };

/**
 * The state both e-mail dialogs share: the mode, compose → review, the contact draft with its
 * problem, and the e-mail under review. Each dialog adds its own invitation fields.
 */
export function useMailDialogState(initialMode: MailMode) {
  const [mode, setMode] = useState<MailMode>(initialMode);
  const [step, setStep] = useState<'compose' | 'review'>('compose');
  const [contact, setContactDraft] = useState<ContactDraft>(EMPTY_CONTACT_DRAFT);
  const [contactIssue, setContactIssue] = useState<string | null>(null);
  const [draft, setDraft] = useState<EmailDraft>(EMPTY_DRAFT);

  const review = (next: EmailDraft) => {
    setDraft(next);
    setStep('review');
  };

  return {
    mode,
    setMode,
    step,
    backToCompose: () => setStep('compose'),
    contact,
    contactIssue,
    /** A change of the contact draft clears the problem shown for the previous one. */
    setContact: (next: ContactDraft) => {
      setContactDraft(next);
      if (contactIssue) setContactIssue(null);
    },
    draft,
    setDraft,
    review,
    continueContact: (event: FormEvent) => {
      event.preventDefault();
      const problem = contactProblem(contact);
      setContactIssue(problem);
      if (problem) return;
      review({ subject: contact.title.trim(), body: contact.content.trim() });
    },
    reset: () => {
      setMode(initialMode);
      setStep('compose');
      setContactDraft(EMPTY_CONTACT_DRAFT);
      setContactIssue(null);
      setDraft(EMPTY_DRAFT);
    },
  };
}

export type MailDialogState = ReturnType<typeof useMailDialogState>;

/** Sends the reviewed contact e-mail to the study's participants or collaborators. */
export function useContactMail(
  study: Study,
  audience: 'participants' | 'collaborators',
  notify: Notify,
) {
  const sendContact = useSendContactEmail();
  const send = async (recipients: string[], draft: EmailDraft, onSent: () => void) => {
    try {
      const result = await sendContact.mutateAsync({
        studyId: study.id,
        payload: {
          studyCode: study.studyCode,
          audience,
          recipients,
          emailSubject: draft.subject.trim(),
          emailBody: draft.body.trim(),
        },
      });
      onSent();
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
  return { send, isPending: sendContact.isPending };
}

export interface MailDialogFrameProps {
  open: boolean;
  onClose: () => void;
  /** Once the dialog has finished closing: the place to forget what it held. */
  onExited?: () => void;
  mail: MailDialogState;
  /** The compose step's title. */
  title: string;
  /** The review step, but for what the frame fills in (title id, draft, back, send label). */
  review: Omit<EmailReviewProps, 'titleId' | 'draft' | 'onChange' | 'onBack' | 'sendLabel'>;
  /** Submits the compose step (invite fields or contact form, by mode). */
  onContinue: (event: FormEvent) => void;
  continueDisabled?: boolean;
  /** The compose step's fields, under the mode switch. */
  children: ReactNode;
}

/** The dialog both e-mail dialogs show: compose (mode switch and fields), then review and send. */
export function MailDialogFrame({
  open,
  onClose,
  onExited,
  mail,
  title,
  review,
  onContinue,
  continueDisabled = false,
  children,
}: MailDialogFrameProps) {
  const fullScreen = useMediaQuery(useTheme().breakpoints.down('sm'));
  const titleId = useId();
  return (
    <Dialog
      open={open}
      onClose={onClose}
      slotProps={{ transition: { onExited } }}
      aria-labelledby={titleId}
      maxWidth="md"
      fullWidth
      fullScreen={fullScreen}
    >
      {mail.step === 'review' ? (
        <EmailReview
          {...review}
          sendLabel={
            mail.mode === 'invite'
              ? INVITE_DIALOG_TEXTS.sendInvitations
              : INVITE_DIALOG_TEXTS.sendEmails
          }
          titleId={titleId}
          draft={mail.draft}
          onChange={mail.setDraft}
          onBack={mail.backToCompose}
        />
      ) : (
        <Box component="form" noValidate onSubmit={onContinue}>
          <DialogTitle id={titleId}>{title}</DialogTitle>
          <DialogContent dividers>
            <ModeToggle mode={mail.mode} onChange={mail.setMode} />
            {children}
          </DialogContent>
          <DialogActions sx={{ px: 3, py: 2 }}>
            <Button onClick={onClose}>{STUDY_DETAIL_TEXTS.cancel}</Button>
            <Button type="submit" variant="contained" disabled={continueDisabled}>
              {INVITE_DIALOG_TEXTS.continue}
            </Button>
          </DialogActions>
        </Box>
      )}
    </Dialog>
  );
}
