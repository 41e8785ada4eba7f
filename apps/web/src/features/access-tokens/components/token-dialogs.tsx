import ContentCopy from '@mui/icons-material/ContentCopy';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  ACCESS_TOKEN_EXPIRY_DAYS,
  ACCESS_TOKEN_NAME_MAX,
  ACCESS_TOKEN_PANEL_TEXTS,
  type AccessToken,
  type AccessTokenExpiryDays,
  type CreateAccessTokenInput,
  createAccessTokenBodySchema,
} from '@research/contracts';
import { type FormEvent, useId, useState } from 'react';
import { FieldStack, FormDialog, FormDialogBody } from '../../../components/form-dialog';

const T = ACCESS_TOKEN_PANEL_TEXTS;

export interface CreateTokenDialogProps {
  open: boolean;
  busy: boolean;
  /** The server's refusal of the last try, shown above the buttons. */
  error: string | null;
  onClose: () => void;
  onCreate: (input: CreateAccessTokenInput) => void;
}

/** Name and lifetime of a new token; the fields start afresh at each opening. */
export function CreateTokenDialog({
  open,
  busy,
  error,
  onClose,
  onCreate,
}: CreateTokenDialogProps) {
  return (
    <FormDialog open={open} busy={busy} onClose={onClose} maxWidth="sm">
      {open && <CreateTokenForm error={error} onCreate={onCreate} />}
    </FormDialog>
  );
}

function CreateTokenForm({ error, onCreate }: Pick<CreateTokenDialogProps, 'error' | 'onCreate'>) {
  const [name, setName] = useState('');
  const [days, setDays] = useState<AccessTokenExpiryDays>(90);
  const [tried, setTried] = useState(false);
  const parsed = createAccessTokenBodySchema.safeParse({ name, expiresInDays: days });
  const nameError = parsed.success
    ? null
    : (parsed.error.issues.find((issue) => issue.path[0] === 'name')?.message ?? null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (parsed.success) onCreate(parsed.data);
  };

  return (
    <FormDialogBody
      title={T.createDialog.title}
      submitLabel={T.createDialog.submit}
      busyLabel={T.createDialog.submitting}
      cancelLabel={T.createDialog.cancel}
      onSubmit={submit}
    >
      <FieldStack>
        <TextField
          label={T.createDialog.name}
          value={name}
          onChange={(event) => setName(event.target.value)}
          required
          autoFocus
          slotProps={{ htmlInput: { maxLength: ACCESS_TOKEN_NAME_MAX } }}
          error={tried && nameError !== null}
          helperText={(tried && nameError) || T.createDialog.nameHelp}
        />
        <TextField
          select
          label={T.createDialog.expiry}
          value={days}
          onChange={(event) => setDays(Number(event.target.value) as AccessTokenExpiryDays)}
        >
          {ACCESS_TOKEN_EXPIRY_DAYS.map((option) => (
            <MenuItem key={option} value={option}>
              {T.createDialog.expiryOption(option)}
            </MenuItem>
          ))}
        </TextField>
        {error && <Alert severity="error">{error}</Alert>}
      </FieldStack>
    </FormDialogBody>
  );
}

export interface SecretDialogProps {
  /** The new token's secret; null when no dialog is shown. */
  secret: string | null;
  studyId: string;
  onClose: () => void;
}

/** The secret, this once: copy it now, it is not kept anywhere it could be shown from again. */
export function SecretDialog({ secret, studyId, onClose }: SecretDialogProps) {
  const titleId = useId();
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');
  const close = () => {
    setCopy('idle');
    onClose();
  };
  const copySecret = async () => {
    try {
      if (!navigator.clipboard || !secret) throw new Error('Clipboard unavailable');
      await navigator.clipboard.writeText(secret);
      setCopy('copied');
    } catch {
      setCopy('failed');
    }
  };
  return (
    <Dialog open={secret !== null} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>{T.createdDialog.title}</DialogTitle>
      <DialogContent>
        <Alert severity="warning" sx={{ mb: 2 }}>
          {T.createdDialog.warning}
        </Alert>
        {/* The whole secret, wrapped, so it can be checked by eye; the button goes under it on a phone. */}
        <Box
          sx={{
            display: 'flex',
            flexDirection: { xs: 'column', sm: 'row' },
            gap: 1,
            alignItems: { xs: 'flex-end', sm: 'flex-start' },
          }}
        >
          <TextField
            label={T.createdDialog.secretLabel}
            value={secret ?? ''}
            fullWidth
            multiline
            slotProps={{
              htmlInput: {
                readOnly: true,
                spellCheck: false,
                style: { fontFamily: 'monospace', wordBreak: 'break-all' },
              },
            }}
            onFocus={(event) => event.target.select()}
          />
          <Button
            variant="contained"
            onClick={copySecret}
            startIcon={<ContentCopy />}
            sx={{ mt: { sm: 1 }, flexShrink: 0 }}
          >
            {copy === 'copied' ? T.createdDialog.copied : T.createdDialog.copy}
          </Button>
        </Box>
        {copy === 'failed' && (
          <Alert severity="error" sx={{ mt: 1 }}>
            {T.createdDialog.copyFailed}
          </Alert>
        )}
        <Typography variant="body2" sx={{ mt: 2 }}>
          {T.createdDialog.usage}
        </Typography>
        {/* Wraps at its spaces first; the long URL breaks wherever it must. */}
        <Box
          component="pre"
          sx={{
            fontSize: 13,
            whiteSpace: 'pre-wrap',
            overflowWrap: 'anywhere',
            m: 0,
            mt: 1,
            p: 1.5,
            bgcolor: 'grey.100',
            borderRadius: 1,
          }}
        >
          {T.createdDialog.curl(window.location.origin, studyId)}
        </Box>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button variant="contained" onClick={close}>
          {T.createdDialog.done}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export interface RevokeDialogProps {
  token: AccessToken | null;
  busy: boolean;
  error: string | null;
  onClose: () => void;
  onConfirm: (token: AccessToken) => void;
}

/** Asks before a token stops working for good. */
export function RevokeDialog({ token, busy, error, onClose, onConfirm }: RevokeDialogProps) {
  const titleId = useId();
  return (
    <Dialog
      open={token !== null}
      onClose={busy ? undefined : onClose}
      aria-labelledby={titleId}
      maxWidth="xs"
      fullWidth
    >
      <DialogTitle id={titleId}>{T.revokeDialog.title}</DialogTitle>
      <DialogContent>
        <DialogContentText>{token ? T.revokeDialog.body(token.name) : ''}</DialogContentText>
        {error && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={busy}>
          {T.revokeDialog.cancel}
        </Button>
        <Button
          variant="contained"
          color="error"
          disabled={busy}
          onClick={() => token && onConfirm(token)}
          startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined}
        >
          {busy ? T.revokeDialog.confirming : T.revokeDialog.confirm}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
