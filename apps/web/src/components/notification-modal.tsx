import CheckCircleOutline from '@mui/icons-material/CheckCircleOutline';
import ErrorOutline from '@mui/icons-material/ErrorOutline';
import InfoOutlined from '@mui/icons-material/InfoOutlined';
import WarningAmber from '@mui/icons-material/WarningAmber';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import Typography from '@mui/material/Typography';
import { SHELL_TEXTS } from '@research/contracts';
import { type ReactNode, useId, useState } from 'react';

export type NotificationType = 'success' | 'error' | 'info' | 'warning';

/** Opens a page's notification modal; pages hand it to the sections they compose. */
export type Notify = (type: NotificationType, title: string, message: string) => void;

/** What the modal shows, without the bookkeeping fields. */
export interface NotificationContent {
  type: NotificationType;
  title: string;
  message: ReactNode;
  /** An optional second button, e.g. 'Try again'. */
  action?: { label: string; onClick: () => void };
}

export interface NotificationModalProps {
  /** null closes the modal. */
  notification: NotificationContent | null;
  onClose: () => void;
}

const ICONS = {
  success: CheckCircleOutline,
  error: ErrorOutline,
  info: InfoOutlined,
  warning: WarningAmber,
} as const;

/**
 * The notification modal: a type icon, a title, a message and a 'Got it' button.
 * Errors and warnings are announced as alert dialogs.
 */
export function NotificationModal({ notification, onClose }: NotificationModalProps) {
  const titleId = useId();
  const messageId = useId();
  // Keep the last content while the dialog fades out, so it does not go blank on close.
  const [last, setLast] = useState(notification);
  if (notification !== null && notification !== last) setLast(notification);
  const content = notification ?? last;
  const type = content?.type ?? 'info';
  const Icon = ICONS[type];
  return (
    <Dialog
      open={notification !== null}
      onClose={onClose}
      maxWidth="xs"
      fullWidth
      role={type === 'error' || type === 'warning' ? 'alertdialog' : 'dialog'}
      aria-labelledby={titleId}
      aria-describedby={messageId}
      data-notification-type={type}
    >
      {content && (
        <>
          <DialogContent sx={{ textAlign: 'center', pt: 4 }}>
            <Box
              sx={{
                mx: 'auto',
                mb: 2,
                width: 64,
                height: 64,
                borderRadius: '50%',
                display: 'grid',
                placeItems: 'center',
                bgcolor: `${type}.main`,
                color: `${type}.contrastText`,
              }}
            >
              <Icon aria-hidden sx={{ fontSize: 40 }} data-testid={`notification-icon-${type}`} />
            </Box>
            <Typography id={titleId} variant="h6" component="h2" gutterBottom>
              {content.title}
            </Typography>
            <Typography
              id={messageId}
              component="div"
              color="text.secondary"
              sx={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}
            >
              {content.message}
            </Typography>
          </DialogContent>
          <DialogActions sx={{ justifyContent: 'center', pb: 3, gap: 1 }}>
            {content.action && (
              <Button
                variant="outlined"
                onClick={() => {
                  content.action?.onClick();
                  onClose();
                }}
              >
                {content.action.label}
              </Button>
            )}
            <Button variant="contained" onClick={onClose} autoFocus>
              {SHELL_TEXTS.gotIt}
            </Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
