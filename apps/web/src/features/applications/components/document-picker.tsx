import Close from '@mui/icons-material/Close';
import Description from '@mui/icons-material/Description';
import UploadFile from '@mui/icons-material/UploadFile';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import {
  DOCUMENT_UPLOAD_MESSAGES,
  formatDocumentSize,
  REGISTER_TEXTS,
  RESEARCHER_DOCUMENTS,
} from '@research/contracts';
import { useState } from 'react';
import { FilePickerButton } from '../../../components/file-picker-button';

const ACCEPT = [...RESEARCHER_DOCUMENTS.mimeTypes, '.pdf', '.png', '.jpg', '.jpeg'].join(',');
const EXTENSIONS = new Set(['pdf', 'png', 'jpg', 'jpeg']);

function hasAllowedType(file: File): boolean {
  if ((RESEARCHER_DOCUMENTS.mimeTypes as readonly string[]).includes(file.type)) return true;
  // Some systems report no type for a file they do not know; fall back to its extension.
  const extension = file.name.includes('.') ? file.name.split('.').pop()?.toLowerCase() : '';
  return file.type === '' && extension !== undefined && EXTENSIONS.has(extension);
}

const sameFile = (a: File, b: File) =>
  a.name === b.name && a.size === b.size && a.lastModified === b.lastModified;

/**
 * Adds picked files to the chosen ones within the limits (5 files, 10 MB, PDF/PNG/
 * JPEG). Files that break a limit are left out, and the first reason is returned for display;
 * the server checks the same limits (and the real content type) again.
 */
function addDocuments(current: File[], picked: File[]): { files: File[]; error: string | null } {
  const files = [...current];
  let error: string | null = null;
  for (const file of picked) {
    if (files.some((chosen) => sameFile(chosen, file))) continue;
    let reason: string | null = null;
    if (!hasAllowedType(file)) reason = REGISTER_TEXTS.wrongFileType(file.name);
    else if (file.size > RESEARCHER_DOCUMENTS.maxFileBytes)
      reason = REGISTER_TEXTS.fileTooLarge(file.name);
    else if (files.length >= RESEARCHER_DOCUMENTS.maxFiles)
      reason = DOCUMENT_UPLOAD_MESSAGES.tooManyFiles;
    if (reason) error ??= reason;
    else files.push(file);
  }
  return { files, error };
}

interface DocumentPickerProps {
  files: File[];
  onChange: (files: File[]) => void;
  disabled?: boolean;
}

export function DocumentPicker({ files, onChange, disabled = false }: DocumentPickerProps) {
  const [error, setError] = useState<string | null>(null);

  const onPick = (picked: File[]) => {
    const next = addDocuments(files, picked);
    setError(next.error);
    onChange(next.files);
  };

  const remove = (file: File) => {
    setError(null);
    onChange(files.filter((chosen) => chosen !== file));
  };

  const full = files.length >= RESEARCHER_DOCUMENTS.maxFiles;

  return (
    <Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {REGISTER_TEXTS.documentsIntro}
      </Typography>
      <FilePickerButton
        variant="outlined"
        startIcon={<UploadFile />}
        disabled={disabled || full}
        accept={ACCEPT}
        multiple
        onFiles={onPick}
        input={{ 'aria-label': REGISTER_TEXTS.documentsInputLabel }}
      >
        {REGISTER_TEXTS.chooseFiles}
      </FilePickerButton>
      {error && (
        <Alert severity="error" sx={{ mt: 1.5 }}>
          {error}
        </Alert>
      )}
      {files.length > 0 && (
        <List
          dense
          aria-label={REGISTER_TEXTS.documentsSection}
          sx={{ mt: 1.5, border: 1, borderColor: 'divider', borderRadius: 1.5, py: 0 }}
        >
          {files.map((file, index) => (
            <ListItem
              key={`${file.name}-${file.size}-${file.lastModified}`}
              divider={index < files.length - 1}
              secondaryAction={
                <IconButton
                  edge="end"
                  aria-label={REGISTER_TEXTS.removeFile(file.name)}
                  onClick={() => remove(file)}
                  disabled={disabled}
                >
                  <Close />
                </IconButton>
              }
            >
              <ListItemIcon sx={{ minWidth: 36 }}>
                <Description color="action" />
              </ListItemIcon>
              <ListItemText
                primary={file.name}
                secondary={formatDocumentSize(file.size)}
                slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }}
              />
            </ListItem>
          ))}
        </List>
      )}
    </Box>
  );
}
