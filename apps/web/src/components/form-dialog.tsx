import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import {
  createContext,
  type FormEvent,
  type ReactNode,
  useContext,
  useEffect,
  useId,
  useState,
} from 'react';
import { CancelAndSubmit, type CancelAndSubmitProps } from './cancel-and-submit';

interface FormDialogFrame {
  titleId: string;
  busy: boolean;
  onClose: () => void;
}

// The body of a form dialog is often a keyed child (fresh state per opening): the frame's
// title id, busy flag and close reach it here instead of through every form's props.
const FrameContext = createContext<FormDialogFrame | null>(null);

export interface FormDialogProps {
  open: boolean;
  /** While busy the dialog cannot be dismissed and its buttons are disabled. */
  busy: boolean;
  onClose: () => void;
  maxWidth: 'xs' | 'sm';
  /** A FormDialogBody, directly or inside a keyed form component. */
  children: ReactNode;
}

/** A small dialog holding one form, labelled by its title; it stays open while busy. */
export function FormDialog({ open, busy, onClose, maxWidth, children }: FormDialogProps) {
  const titleId = useId();
  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      aria-labelledby={titleId}
      maxWidth={maxWidth}
      fullWidth
    >
      <FrameContext.Provider value={{ titleId, busy, onClose }}>{children}</FrameContext.Provider>
    </Dialog>
  );
}

export interface FormDialogBodyProps
  extends Omit<CancelAndSubmitProps, 'label' | 'busy' | 'onClose'> {
  title: string;
  /** A line above the fields. */
  intro?: ReactNode;
  submitLabel: string;
  onSubmit: (event: FormEvent) => void;
  /** Further buttons before Cancel (e.g. 'Change Password'); given (null too), the actions wrap. */
  extraActions?: ReactNode;
  children: ReactNode;
}

/** The form of a FormDialog: title, an optional intro, the fields, then Cancel and submit. */
export function FormDialogBody({
  title,
  intro,
  submitLabel,
  onSubmit,
  extraActions,
  children,
  ...actions
}: FormDialogBodyProps) {
  const frame = useContext(FrameContext);
  if (!frame) throw new Error('FormDialogBody belongs inside a FormDialog');
  return (
    <Box component="form" noValidate onSubmit={onSubmit}>
      <DialogTitle id={frame.titleId}>{title}</DialogTitle>
      <DialogContent>
        {intro !== undefined && <DialogContentText sx={{ mb: 2 }}>{intro}</DialogContentText>}
        {children}
      </DialogContent>
      <DialogActions
        sx={
          extraActions !== undefined ? { px: 3, pb: 2, flexWrap: 'wrap', gap: 1 } : { px: 3, pb: 2 }
        }
      >
        {extraActions}
        <CancelAndSubmit
          {...actions}
          busy={frame.busy}
          onClose={frame.onClose}
          label={submitLabel}
        />
      </DialogActions>
    </Box>
  );
}

/** The fields of a form dialog, one under the other; spaced from the title when no intro is. */
export function FieldStack({ children, intro = false }: { children: ReactNode; intro?: boolean }) {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: intro ? undefined : 1 }}>
      {children}
    </Box>
  );
}

/** A dialog whose form values live in the page, so they clear only after a success. */
export interface PageFormDialogProps<F> {
  open: boolean;
  busy: boolean;
  form: F;
  onChange: (form: F) => void;
  onClose: () => void;
  onSubmit: (form: F) => void;
}

/** Whether a submit was tried since the dialog opened: a fresh opening shows no error texts. */
export function useSubmitTried(open: boolean) {
  const [tried, setTried] = useState(false);
  useEffect(() => {
    if (!open) setTried(false);
  }, [open]);
  return [tried, setTried] as const;
}
