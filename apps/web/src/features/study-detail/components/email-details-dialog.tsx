import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import {
  type DeliveryStatus,
  EMAIL_HISTORY_TEXTS,
  type EmailRecord,
  emailSummary,
  STUDY_DETAIL_TEXTS,
} from '@research/contracts';
import { type ReactNode, useId, useState } from 'react';
import { useEmailDetails } from '../api/get-email-details';
import { messageOf } from './notify';

const DELIVERY_COLOURS: Record<DeliveryStatus, 'default' | 'success' | 'error'> = {
  queued: 'default',
  sent: 'success',
  failed: 'error',
};

/** Sent time in en-US: '3/7/2026, 2:05 PM'. */
export function formatSentAt(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleString('en-US', {
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });
}

function Section({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ mb: 2 }}>
      <Typography variant="caption" color="text.secondary" component="h3">
        {label}
      </Typography>
      {children}
    </Box>
  );
}

/**
 * 'Email Details': subject, recipients or count, body, sent time, delivery status.
 * The list row gives subject, count and time at once; body and recipients (with per-recipient
 * status) are fetched when the dialog opens.
 */
export function EmailDetailsDialog({
  studyId,
  email,
  onClose,
}: {
  studyId: string;
  email: EmailRecord | null;
  onClose: () => void;
}) {
  const titleId = useId();
  const [last, setLast] = useState(email);
  if (email !== null && email !== last) setLast(email);
  const details = useEmailDetails(studyId, email?.id ?? null);
  const row = email ?? last;
  const full = details.data && details.data.id === row?.id ? details.data : undefined;
  const shown = full ?? row;
  return (
    <Dialog
      open={email !== null}
      onClose={onClose}
      aria-labelledby={titleId}
      maxWidth="sm"
      fullWidth
    >
      <DialogTitle id={titleId}>{EMAIL_HISTORY_TEXTS.detailsTitle}</DialogTitle>
      {shown && (
        <DialogContent dividers>
          <Section label={EMAIL_HISTORY_TEXTS.subject}>
            <Typography sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
              {shown.emailSubject || EMAIL_HISTORY_TEXTS.noSubject}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {emailSummary(shown.kind, shown.sentCount)}
            </Typography>
          </Section>
          {full ? (
            <>
              <Section label={EMAIL_HISTORY_TEXTS.recipients}>
                {full.participants.length > 0 ? (
                  <Box
                    component="ul"
                    // Long lists scroll: the list takes the focus so the keyboard can scroll it.
                    tabIndex={0}
                    aria-label={EMAIL_HISTORY_TEXTS.recipients}
                    sx={{
                      m: 0,
                      pl: 2.5,
                      maxHeight: 160,
                      overflowY: 'auto',
                      overflowWrap: 'anywhere',
                    }}
                  >
                    {full.participants.map((recipient) => (
                      <li key={recipient.participantEmail}>
                        {recipient.participantEmail}{' '}
                        <Typography component="span" variant="body2" color="text.secondary">
                          ({recipient.status})
                        </Typography>
                      </li>
                    ))}
                  </Box>
                ) : (
                  <Typography>{EMAIL_HISTORY_TEXTS.recipientCount(full.sentCount)}</Typography>
                )}
                {full.participants.length > 0 && full.participants.length < full.sentCount && (
                  <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                    {EMAIL_HISTORY_TEXTS.recipientsCut(full.participants.length, full.sentCount)}
                  </Typography>
                )}
              </Section>
              <Section label={EMAIL_HISTORY_TEXTS.body}>
                <Box
                  // A long body scrolls: focusable and named, so the keyboard can scroll it.
                  role="region"
                  tabIndex={0}
                  aria-label={EMAIL_HISTORY_TEXTS.body}
                  sx={{
                    whiteSpace: 'pre-wrap',
                    overflowWrap: 'anywhere',
                    bgcolor: 'grey.50',
                    border: 1,
                    borderColor: 'divider',
                    borderRadius: 2,
                    p: 1.5,
                    maxHeight: 260,
                    overflowY: 'auto',
                    fontSize: '0.9rem',
                  }}
                >
                  {full.emailBody}
                </Box>
              </Section>
            </>
          ) : details.isError ? (
            <Alert severity="error" sx={{ mb: 2 }}>
              {messageOf(details.error, EMAIL_HISTORY_TEXTS.loadDetailsFailed)}
            </Alert>
          ) : (
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 2 }}>
              <CircularProgress size={24} aria-label={EMAIL_HISTORY_TEXTS.loadingDetails} />
              <Typography color="text.secondary">{EMAIL_HISTORY_TEXTS.loadingDetails}</Typography>
            </Box>
          )}
          <Section label={EMAIL_HISTORY_TEXTS.sentAt}>
            <Typography>{formatSentAt(shown.sentAt)}</Typography>
          </Section>
          <Section label={EMAIL_HISTORY_TEXTS.deliveryStatus}>
            <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
              {(Object.keys(DELIVERY_COLOURS) as DeliveryStatus[]).map((status) => (
                <Chip
                  key={status}
                  size="small"
                  color={DELIVERY_COLOURS[status]}
                  variant={shown.deliveryStatus[status] > 0 ? 'filled' : 'outlined'}
                  label={`${status}: ${shown.deliveryStatus[status]}`}
                />
              ))}
            </Box>
          </Section>
        </DialogContent>
      )}
      <DialogActions sx={{ px: 3, py: 1.5 }}>
        <Button onClick={onClose}>{STUDY_DETAIL_TEXTS.close}</Button>
      </DialogActions>
    </Dialog>
  );
}
