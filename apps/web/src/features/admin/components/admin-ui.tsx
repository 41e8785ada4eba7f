import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { ApplicationStatus } from '@research/contracts';
import { ADMIN_TEXTS } from '@research/contracts';
import type { ReactNode } from 'react';
import { ApiError } from '../../../lib/api-client';

/** Dark text on a pale fill: every pair passes WCAG AA (the MUI filled warning chip does not). */
const STATUS_COLOURS: Record<ApplicationStatus, { bg: string; fg: string }> = {
  pending: { bg: '#FFF4E5', fg: '#663C00' },
  approved: { bg: '#EDF7ED', fg: '#1E4620' },
  rejected: { bg: '#FDEDED', fg: '#5F2120' },
};

export function StatusChip({ status }: { status: ApplicationStatus }) {
  const colours = STATUS_COLOURS[status];
  return (
    <Chip
      size="small"
      label={ADMIN_TEXTS.status[status]}
      sx={{ bgcolor: colours.bg, color: colours.fg, border: `1px solid ${colours.fg}33` }}
    />
  );
}

export function EmptyState({ title, text }: { title: string; text: string }) {
  return (
    <Box sx={{ textAlign: 'center', py: { xs: 5, sm: 7 }, px: 2 }}>
      <Typography variant="h6" component="h2" gutterBottom>
        {title}
      </Typography>
      <Typography color="text.secondary">{text}</Typography>
    </Box>
  );
}

/**
 * A failure with the product's text as the title and, when the server said something more
 * specific than the text itself, that message below it.
 */
export function FailureAlert({
  title,
  error,
  onClose,
}: {
  title: string;
  error: unknown;
  onClose?: () => void;
}) {
  const detail = failureDetail(error, title);
  return (
    <Alert severity="error" onClose={onClose} sx={{ mb: 2 }}>
      <AlertTitle sx={{ mb: detail ? 0.5 : 0 }}>{title}</AlertTitle>
      {detail}
    </Alert>
  );
}

function failureDetail(error: unknown, title: string): string | null {
  const message =
    error instanceof ApiError || error instanceof Error ? error.message.trim() : undefined;
  return message && message !== title ? message : null;
}

export const fullName = (person: { firstName: string; lastName: string }): string =>
  `${person.firstName} ${person.lastName}`.trim();

/** en-US short date and time, e.g. '3/7/2026, 2:05 PM' (the dialogs' 'submitted time'). */
export function formatDateTimeShort(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat('en-US', {
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  }).format(date);
}

export interface DetailItem {
  label: string;
  value: ReactNode;
  /** Spans both columns (long text such as a description). */
  wide?: boolean;
}

/** Label/value pairs as a description list: two columns from the small breakpoint up. */
export function DetailList({ items }: { items: DetailItem[] }) {
  return (
    <Box
      component="dl"
      sx={{
        m: 0,
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' },
        columnGap: 3,
        rowGap: 2,
      }}
    >
      {items.map((item) => (
        <Box key={item.label} sx={{ gridColumn: item.wide ? '1 / -1' : undefined, minWidth: 0 }}>
          <Typography
            component="dt"
            variant="caption"
            color="text.secondary"
            sx={{ fontWeight: 500 }}
          >
            {item.label}
          </Typography>
          <Typography
            component="dd"
            variant="body2"
            sx={{ m: 0, overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}
          >
            {item.value === '' || item.value == null ? ADMIN_TEXTS.notSpecified : item.value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

/**
 * Below the small breakpoint (phones): dialogs fill the screen, where a centred card would leave
 * no room for the text, and lists show cards instead of tables.
 */
export function useFullScreenDialog(): boolean {
  const theme = useTheme();
  return useMediaQuery(theme.breakpoints.down('sm'));
}

/** The description column: one clipped line, the full text on hover and to screen readers. */
export function DescriptionCell({ text }: { text: string | null }) {
  const value = text?.trim();
  if (!value) {
    return (
      <Typography variant="body2" color="text.secondary" sx={{ fontStyle: 'italic' }}>
        {ADMIN_TEXTS.noDescription}
      </Typography>
    );
  }
  return (
    <Typography
      variant="body2"
      title={value}
      sx={{
        maxWidth: 280,
        display: '-webkit-box',
        WebkitLineClamp: 2,
        WebkitBoxOrient: 'vertical',
        overflow: 'hidden',
      }}
    >
      {value}
    </Typography>
  );
}

/**
 * Name on the first line, e-mail below: the Applicant / Researcher column. An address is never
 * broken mid-word: one that does not fit ends in an ellipsis and shows in full on hover (title).
 */
export function PersonCell({ name, email }: { name: string; email: string }) {
  return (
    <Box sx={{ minWidth: 0, maxWidth: { sm: 280 } }}>
      <Typography variant="body2" sx={{ fontWeight: 500 }}>
        {name}
      </Typography>
      <Typography variant="body2" color="text.secondary" noWrap title={email}>
        {email}
      </Typography>
    </Box>
  );
}

interface RowCardProps {
  name: string;
  email: string;
  status: ApplicationStatus;
  /** Label/value lines below the name, e.g. institution and a date. */
  lines: { label: string; value: ReactNode }[];
  description?: string | null;
  /** The row's action buttons. */
  actions: ReactNode;
}

/** One row of an admin list as a card: what a phone shows instead of a table row. */
export function RowCard({ name, email, status, lines, description, actions }: RowCardProps) {
  return (
    <Box
      component="li"
      aria-label={name}
      sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5, minWidth: 0 }}
    >
      <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <PersonCell name={name} email={email} />
        </Box>
        <StatusChip status={status} />
      </Box>
      <Box component="dl" sx={{ m: 0, mt: 1, display: 'grid', rowGap: 0.25 }}>
        {lines.map((line) => (
          <Box key={line.label} sx={{ display: 'flex', gap: 1, minWidth: 0 }}>
            <Typography
              component="dt"
              variant="body2"
              color="text.secondary"
              sx={{ flexShrink: 0 }}
            >
              {line.label}:
            </Typography>
            <Typography
              component="dd"
              variant="body2"
              sx={{ m: 0, minWidth: 0, overflowWrap: 'break-word' }}
            >
              {line.value === '' || line.value == null ? ADMIN_TEXTS.notSpecified : line.value}
            </Typography>
          </Box>
        ))}
      </Box>
      {description !== undefined && (
        <Box sx={{ mt: 1 }}>
          <DescriptionCell text={description} />
        </Box>
      )}
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 0.5, mt: 0.5 }}>{actions}</Box>
    </Box>
  );
}
