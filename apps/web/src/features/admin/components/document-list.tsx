import DescriptionOutlined from '@mui/icons-material/DescriptionOutlined';
import Download from '@mui/icons-material/Download';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { ADMIN_TEXTS, formatDocumentSize, type VerificationDocument } from '@research/contracts';
import { useDownloadDocument } from '../api/download-document';
import { FailureAlert } from './admin-ui';

interface DocumentListProps {
  applicationId: string;
  documents: VerificationDocument[];
  /** Show the type and a download button (the pending details dialog). */
  downloadable?: boolean;
}

export function DocumentList({
  applicationId,
  documents,
  downloadable = false,
}: DocumentListProps) {
  const download = useDownloadDocument();
  if (documents.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        {ADMIN_TEXTS.dialogs.noDocuments}
      </Typography>
    );
  }
  return (
    <>
      {download.isError && (
        <FailureAlert
          title={ADMIN_TEXTS.dialogs.downloadFailed}
          error={download.error}
          onClose={() => download.reset()}
        />
      )}
      <List dense disablePadding aria-label={ADMIN_TEXTS.dialogs.documents}>
        {documents.map((document) => {
          const busy = download.isPending && download.variables?.documentId === document.id;
          const details = downloadable
            ? `${formatDocumentSize(document.size)} · ${document.type}`
            : formatDocumentSize(document.size);
          return (
            <ListItem
              key={document.id}
              disableGutters
              sx={{ pr: downloadable ? 6 : 0 }}
              secondaryAction={
                downloadable ? (
                  <Tooltip title={ADMIN_TEXTS.actions.download}>
                    <span>
                      <IconButton
                        edge="end"
                        aria-label={`${ADMIN_TEXTS.actions.download} ${document.name}`}
                        disabled={busy}
                        onClick={() =>
                          download.mutate({
                            applicationId,
                            documentId: document.id,
                            fileName: document.name,
                          })
                        }
                      >
                        {busy ? <CircularProgress size={20} /> : <Download />}
                      </IconButton>
                    </span>
                  </Tooltip>
                ) : undefined
              }
            >
              <ListItemIcon sx={{ minWidth: 36 }}>
                <DescriptionOutlined fontSize="small" />
              </ListItemIcon>
              <ListItemText
                primary={document.name}
                secondary={details}
                slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }}
              />
            </ListItem>
          );
        })}
      </List>
    </>
  );
}
