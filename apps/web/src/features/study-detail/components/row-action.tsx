import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { displayPhone, STUDY_DETAIL_TEXTS } from '@research/contracts';
import type { ReactNode } from 'react';

export interface RowActionProps {
  /** The button's accessible name; also its tooltip unless `tooltip` says otherwise. */
  label: string;
  tooltip?: string;
  icon: ReactNode;
  color?: 'error';
  disabled?: boolean;
  onClick: () => void;
}

/** A small icon button of a table row, with its tooltip. */
export function RowAction({ label, tooltip, icon, color, disabled, onClick }: RowActionProps) {
  const button = (
    <IconButton size="small" color={color} aria-label={label} disabled={disabled} onClick={onClick}>
      {icon}
    </IconButton>
  );
  return (
    <Tooltip title={tooltip ?? label}>
      {/* A disabled button fires no events; the span keeps the tooltip working. */}
      {disabled === undefined ? button : <span>{button}</span>}
    </Tooltip>
  );
}

/** A stored phone number as shown, or 'not provided'. */
export const phoneText = (phone: string | null | undefined): string =>
  phone ? displayPhone(phone) : STUDY_DETAIL_TEXTS.notProvided;
