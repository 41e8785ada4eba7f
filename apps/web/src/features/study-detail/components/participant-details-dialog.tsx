import Download from '@mui/icons-material/Download';
import ShowChart from '@mui/icons-material/ShowChart';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import {
  displayPhone,
  formatDateShort,
  formatSizeKBRounded,
  NOTIFICATION_TITLES,
  PARTICIPANT_CHARTS_TEXTS,
  PARTICIPANT_MESSAGES,
  type ParticipantDetails,
  type ParticipantRow,
  STUDY_DETAIL_TEXTS,
  STUDY_PARTICIPANT_TEXTS,
} from '@research/contracts';
import { type ReactNode, useEffect, useId } from 'react';
import { Link as RouterLink } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { useDownloadParticipantDocument } from '../api/download-participant-document';
import { useParticipantInfo } from '../api/get-participant-info';
import { messageOf, type Notify } from './notify';

export interface ParticipantDetailsDialogProps {
  studyId: string;
  /** The row whose details are shown; null closes the dialog. */
  participant: ParticipantRow | null;
  signedIn: boolean;
  notify: Notify;
  onClose: () => void;
}

/** 'Participant Details': every field, documents with size in whole KB and download. */
export function ParticipantDetailsDialog({
  studyId,
  participant,
  signedIn,
  notify,
  onClose,
}: ParticipantDetailsDialogProps) {
  const titleId = useId();
  const info = useParticipantInfo(studyId, signedIn ? (participant?.participantId ?? null) : null);
  const open = participant !== null;

  useEffect(() => {
    if (open && !signedIn) {
      onClose();
      notify(
        'error',
        NOTIFICATION_TITLES.authenticationError,
        PARTICIPANT_MESSAGES.authRequiredToView,
      );
    }
  }, [open, signedIn, onClose, notify]);

  useEffect(() => {
    if (open && info.error) {
      onClose();
      notify(
        'error',
        PARTICIPANT_MESSAGES.loadDetailsFailedTitle,
        messageOf(info.error, PARTICIPANT_MESSAGES.loadDetailsFailedTitle),
      );
    }
  }, [open, info.error, onClose, notify]);

  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>{STUDY_PARTICIPANT_TEXTS.detailsTitle}</DialogTitle>
      {/* Text only, and taller than a phone: the keyboard scrolls it once it has the focus. */}
      <DialogContent dividers tabIndex={0} role="region" aria-labelledby={titleId}>
        {info.data ? (
          <DetailsBody details={info.data} studyId={studyId} />
        ) : (
          <Box sx={{ display: 'grid', placeItems: 'center', py: 4, gap: 1 }} role="status">
            <CircularProgress size={32} aria-label={STUDY_PARTICIPANT_TEXTS.loadingDetails} />
            <Typography color="text.secondary">{STUDY_PARTICIPANT_TEXTS.loadingDetails}</Typography>
          </Box>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 1.5 }}>
        <Button onClick={onClose}>{STUDY_DETAIL_TEXTS.close}</Button>
      </DialogActions>
    </Dialog>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="caption" color="text.secondary" component="dt">
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
        {children}
      </Typography>
    </Box>
  );
}

function DetailsBody({ details, studyId }: { details: ParticipantDetails; studyId: string }) {
  const f = STUDY_PARTICIPANT_TEXTS.fields;
  const download = useDownloadParticipantDocument();
  return (
    <>
      <Box
        component="dl"
        sx={{
          m: 0,
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' },
          gap: 2,
        }}
      >
        <Field label={f.participantId}>
          <Box component="span" sx={{ fontFamily: 'monospace' }}>
            {details.participantId}
          </Box>
        </Field>
        <Field label={f.studyCode}>{details.studyCode}</Field>
        <Field label={f.firstName}>{details.firstName || STUDY_DETAIL_TEXTS.notProvided}</Field>
        <Field label={f.lastName}>{details.lastName || STUDY_DETAIL_TEXTS.notProvided}</Field>
        <Field label={f.email}>{details.email}</Field>
        <Field label={f.phone}>
          {details.phoneNumber ? displayPhone(details.phoneNumber) : STUDY_DETAIL_TEXTS.notProvided}
        </Field>
        <Field label={f.status}>
          <Chip
            size="small"
            label={details.status}
            color={details.status === 'enrolled' ? 'success' : 'default'}
          />
        </Field>
        <Field label={f.informationCompleted}>
          <Chip
            size="small"
            variant="outlined"
            label={
              details.informationCompleted
                ? STUDY_PARTICIPANT_TEXTS.completed
                : STUDY_PARTICIPANT_TEXTS.incomplete
            }
            color={details.informationCompleted ? 'success' : 'warning'}
          />
        </Field>
        <Field label={f.enrolledAt}>
          {formatDateShort(details.enrolledAt) || STUDY_DETAIL_TEXTS.notAvailable}
        </Field>
        <Field label={f.authorizedAt}>
          {formatDateShort(details.authorizedAt) || STUDY_DETAIL_TEXTS.notAvailable}
        </Field>
        <Field label={f.informationCompletedAt}>
          {formatDateShort(details.informationCompletedAt) || STUDY_DETAIL_TEXTS.notAvailable}
        </Field>
      </Box>
      <Box sx={{ mt: 2 }}>
        <Typography variant="caption" color="text.secondary">
          {f.additionalInfo}
        </Typography>
        <Typography sx={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
          {details.additionalInfo?.trim() || STUDY_DETAIL_TEXTS.notProvided}
        </Typography>
      </Box>
      <Box sx={{ mt: 2 }}>
        <Typography variant="subtitle2" component="h3">
          {PARTICIPANT_CHARTS_TEXTS.section}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {PARTICIPANT_CHARTS_TEXTS.sectionBody}
        </Typography>
        <Button
          component={RouterLink}
          to={`/researcher/study/${studyId}/participant/${details.participantId}`}
          variant="outlined"
          size="small"
          startIcon={<ShowChart />}
        >
          {PARTICIPANT_CHARTS_TEXTS.open}
        </Button>
      </Box>
      <Box sx={{ mt: 2 }}>
        <Typography variant="subtitle2" component="h3">
          {f.documents}
        </Typography>
        {download.isError && (
          <Alert severity="error" onClose={() => download.reset()} sx={{ my: 1 }}>
            {download.error instanceof ApiError
              ? download.error.message
              : STUDY_PARTICIPANT_TEXTS.downloadFailed}
          </Alert>
        )}
        {details.documents.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {STUDY_PARTICIPANT_TEXTS.noDocuments}
          </Typography>
        ) : (
          <List dense disablePadding aria-label={f.documents}>
            {details.documents.map((document) => (
              <ListItem key={document.id} disableGutters>
                <ListItemText
                  primary={
                    <Link
                      component="button"
                      type="button"
                      onClick={() =>
                        download.mutate({
                          participantId: details.participantId,
                          documentId: document.id,
                          fileName: document.name,
                        })
                      }
                      aria-label={STUDY_PARTICIPANT_TEXTS.download(document.name)}
                      sx={{
                        display: 'inline-flex',
                        alignItems: 'center',
                        gap: 0.5,
                        textAlign: 'left',
                      }}
                    >
                      <Download fontSize="small" aria-hidden />
                      {document.name}
                    </Link>
                  }
                  secondary={`${document.type} · ${formatSizeKBRounded(document.size)} · ${formatDateShort(document.uploadedAt)}`}
                  sx={{ overflowWrap: 'anywhere' }}
                />
              </ListItem>
            ))}
          </List>
        )}
      </Box>
    </>
  );
}
