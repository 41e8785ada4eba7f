import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { type FormEvent, type ReactNode, useId } from 'react';
import { CancelAndSubmit, type CancelAndSubmitProps } from './cancel-and-submit';

export interface FormDialogProps {
  open: boolean;
  /** While busy the dialog cannot be dismissed. */
  busy: boolean;
  onClose: () => void;
  maxWidth: 'xs' | 'sm';
  /** The content, given the id its title must carry. */
  children: (titleId: string) => ReactNode;
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
      {children(titleId)}
    </Dialog>
  );
}

export interface FormDialogBodyProps extends Omit<CancelAndSubmitProps, 'label'> {
  titleId: string;
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
  titleId,
  title,
  intro,
  submitLabel,
  onSubmit,
  extraActions,
  children,
  ...actions
}: FormDialogBodyProps) {
  return (
    <Box component="form" noValidate onSubmit={onSubmit}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
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
        <CancelAndSubmit {...actions} label={submitLabel} />
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
