import AttachFile from '@mui/icons-material/AttachFile';
import Close from '@mui/icons-material/Close';
import InsertDriveFileOutlined from '@mui/icons-material/InsertDriveFileOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  DOCUMENT_UPLOAD_MESSAGES,
  displayPhone,
  ENROLMENT_MESSAGES,
  formatSizeHuman,
  isAllowedParticipantDocument,
  NAME_MAX_LENGTH,
  PARTICIPANT_COMMON_TEXTS,
  PARTICIPANT_DOCUMENT_EXTENSIONS,
  PARTICIPANT_DOCUMENT_LIMITS,
  PARTICIPANT_DOCUMENT_MESSAGES,
  PARTICIPANT_INFO_TEXTS,
  PARTICIPANT_LIST_MESSAGES,
  type UpdateInfoResponse,
} from '@research/contracts';
import { type FormEvent, type ReactNode, useId, useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { FilePickerButton } from '../../../components/file-picker-button';
import { ApiError } from '../../../lib/api-client';
import { updateInfo } from '../api/update-info';
import { errorText, StepActions } from './participant-page';

export interface ProfileFormProps {
  participantId: string | undefined;
  studyCode: string | undefined;
  email?: string | undefined;
  phoneNumber?: string | undefined;
  firstName?: string | undefined;
  lastName?: string | undefined;
  onSaved: (result: UpdateInfoResponse) => void;
  back?: ReactNode;
}

const ACCEPT = PARTICIPANT_DOCUMENT_EXTENSIONS.map((ext) => `.${ext}`).join(',');

/**
 * The profile form (used by /participant/info and the flow's Personal Information
 * step): first and last name required, e-mail and phone read-only, optional additional info and
 * optional documents (pdf, doc, docx, jpg, jpeg, png, gif; several, each removable, sizes in
 * Bytes/KB/MB/GB). Sent as multipart to update-info with the participant session.
 */
export function ProfileForm({
  participantId,
  studyCode,
  email = '',
  phoneNumber = '',
  firstName: initialFirst = '',
  lastName: initialLast = '',
  onSaved,
  back,
}: ProfileFormProps) {
  const [firstName, setFirstName] = useState(initialFirst);
  const [lastName, setLastName] = useState(initialLast);
  const [additionalInfo, setAdditionalInfo] = useState('');
  const [documents, setDocuments] = useState<{ key: number; file: File }[]>([]);
  const nextKey = useRef(0);
  const [error, setError] = useState<string | null>(null);
  const [sessionGone, setSessionGone] = useState(false);
  const [busy, setBusy] = useState(false);
  const documentsLabel = useId();

  function addFiles(picked: File[]) {
    setError(null);
    const accepted: { key: number; file: File }[] = [];
    for (const file of picked) {
      if (!isAllowedParticipantDocument(file.name))
        return setError(PARTICIPANT_DOCUMENT_MESSAGES.rejected(file.name));
      if (file.size > PARTICIPANT_DOCUMENT_LIMITS.maxFileBytes)
        return setError(PARTICIPANT_DOCUMENT_MESSAGES.tooLarge(file.name));
      nextKey.current += 1;
      accepted.push({ key: nextKey.current, file });
    }
    const next = [...documents, ...accepted];
    if (next.length > PARTICIPANT_DOCUMENT_LIMITS.maxFiles)
      return setError(DOCUMENT_UPLOAD_MESSAGES.tooManyFiles);
    setDocuments(next);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (!participantId || !studyCode) return setError(ENROLMENT_MESSAGES.missingParticipantData);
    const first = firstName.trim();
    const last = lastName.trim();
    if (!first || !last) return setError(ENROLMENT_MESSAGES.fillRequiredFields);
    if (first.length > NAME_MAX_LENGTH) return setError(PARTICIPANT_LIST_MESSAGES.firstNameTooLong);
    if (last.length > NAME_MAX_LENGTH) return setError(PARTICIPANT_LIST_MESSAGES.lastNameTooLong);
    setError(null);
    setBusy(true);
    try {
      const result = await updateInfo({
        participantId,
        studyCode,
        firstName: first,
        lastName: last,
        additionalInfo: additionalInfo.trim(),
        email,
        phoneNumber,
        documents: documents.map((d) => d.file),
      });
      onSaved(result);
    } catch (cause) {
      setError(errorText(cause, ENROLMENT_MESSAGES.updateInfoFailed));
      // No (or an expired) participant session: proving the address again gives a new one.
      setSessionGone(cause instanceof ApiError && cause.status === 401);
      setBusy(false);
    }
  }

  return (
    <Box
      component="form"
      noValidate
      onSubmit={submit}
      sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}
    >
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        <TextField
          label={PARTICIPANT_COMMON_TEXTS.firstNameLabel}
          value={firstName}
          onChange={(e) => setFirstName(e.target.value)}
          autoComplete="given-name"
          required
          slotProps={{ htmlInput: { maxLength: NAME_MAX_LENGTH } }}
        />
        <TextField
          label={PARTICIPANT_COMMON_TEXTS.lastNameLabel}
          value={lastName}
          onChange={(e) => setLastName(e.target.value)}
          autoComplete="family-name"
          required
          slotProps={{ htmlInput: { maxLength: NAME_MAX_LENGTH } }}
        />
        <TextField
          label={PARTICIPANT_COMMON_TEXTS.emailLabel}
          value={email}
          slotProps={{ input: { readOnly: true } }}
          variant="filled"
        />
        <TextField
          label={PARTICIPANT_COMMON_TEXTS.phoneLabel}
          value={displayPhone(phoneNumber) || PARTICIPANT_COMMON_TEXTS.phoneNotOnRecord}
          slotProps={{ input: { readOnly: true } }}
          variant="filled"
        />
      </Box>
      <TextField
        label={PARTICIPANT_INFO_TEXTS.additionalInfoLabel}
        value={additionalInfo}
        onChange={(e) => setAdditionalInfo(e.target.value)}
        helperText={PARTICIPANT_INFO_TEXTS.additionalInfoHelp}
        multiline
        minRows={3}
        slotProps={{
          htmlInput: { maxLength: PARTICIPANT_DOCUMENT_LIMITS.additionalInfoMaxLength },
        }}
      />
      <Box role="group" aria-labelledby={documentsLabel}>
        <Typography id={documentsLabel} variant="subtitle1" component="h2">
          {PARTICIPANT_INFO_TEXTS.documentsTitle}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {PARTICIPANT_INFO_TEXTS.documentsHelp(PARTICIPANT_DOCUMENT_LIMITS.maxFiles)}
        </Typography>
        <FilePickerButton
          variant="outlined"
          startIcon={<AttachFile />}
          disabled={busy || documents.length >= PARTICIPANT_DOCUMENT_LIMITS.maxFiles}
          accept={ACCEPT}
          multiple
          onFiles={addFiles}
          input={{ 'data-testid': 'participant-documents-input' }}
        >
          {PARTICIPANT_INFO_TEXTS.addDocuments}
        </FilePickerButton>
        {documents.length > 0 && (
          <List dense aria-label={PARTICIPANT_INFO_TEXTS.documentsTitle}>
            {documents.map(({ key, file }) => (
              <ListItem
                key={key}
                disableGutters
                secondaryAction={
                  <IconButton
                    edge="end"
                    aria-label={PARTICIPANT_INFO_TEXTS.remove(file.name)}
                    onClick={() => setDocuments(documents.filter((d) => d.key !== key))}
                    disabled={busy}
                  >
                    <Close />
                  </IconButton>
                }
              >
                <ListItemIcon sx={{ minWidth: 36 }}>
                  <InsertDriveFileOutlined aria-hidden />
                </ListItemIcon>
                <ListItemText
                  primary={file.name}
                  secondary={formatSizeHuman(file.size)}
                  slotProps={{ primary: { sx: { wordBreak: 'break-all', pr: 4 } } }}
                />
              </ListItem>
            ))}
          </List>
        )}
      </Box>
      {error && (
        <Alert
          severity="error"
          role="alert"
          action={
            sessionGone ? (
              <Button
                component={RouterLink}
                to="/participant/verify-email"
                state={{ participantId, email, studyCode }}
                color="inherit"
                size="small"
              >
                {PARTICIPANT_INFO_TEXTS.verifyAgain}
              </Button>
            ) : undefined
          }
        >
          {error}
        </Alert>
      )}
      <StepActions>
        {back ?? <span />}
        <Button
          type="submit"
          variant="contained"
          size="large"
          disabled={busy}
          startIcon={busy ? <CircularProgress size={18} color="inherit" /> : undefined}
        >
          {busy ? PARTICIPANT_INFO_TEXTS.saving : PARTICIPANT_INFO_TEXTS.submit}
        </Button>
      </StepActions>
    </Box>
  );
}
