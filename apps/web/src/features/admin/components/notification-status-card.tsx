import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import {
  NOTIFICATION_STATUS_TEXTS,
  type NotificationStatus,
  type SubscriberStatus,
} from '@research/contracts';
import { type ReactNode, useId } from 'react';
import { useNotificationStatus } from '../api/get-notification-status';
import { DetailList, FailureAlert, formatDateTimeShort } from './admin-ui';

const T = NOTIFICATION_STATUS_TEXTS;

/** Dark text on a pale fill (WCAG AA), as the application status chips. */
const TONES = {
  good: { bg: '#EDF7ED', fg: '#1E4620' },
  warn: { bg: '#FFF4E5', fg: '#663C00' },
  bad: { bg: '#FDEDED', fg: '#5F2120' },
} as const;
type Tone = keyof typeof TONES;

/**
 * The master dashboard's card on Google Health's change notifications: the webhook subscriber as
 * Google reports it, what arrived, what still waits, and the refused calls with what each reason
 * means. A failure stays inside the card.
 */
export function NotificationStatusCard() {
  const titleId = useId();
  const query = useNotificationStatus();
  return (
    <Card component="section" variant="outlined" aria-labelledby={titleId} sx={{ mt: 4 }}>
      <CardContent sx={{ p: { xs: 2, sm: 3 }, '&:last-child': { pb: { xs: 2, sm: 3 } } }}>
        <Typography id={titleId} variant="h6" component="h2">
          {T.title}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {T.intro}
        </Typography>
        {query.isError && <FailureAlert title={T.loadFailed} error={query.error} />}
        {query.isPending && <Skeleton variant="rounded" height={160} />}
        {query.data && <StatusBody status={query.data} />}
      </CardContent>
    </Card>
  );
}

function StatusBody({ status }: { status: NotificationStatus }) {
  const now = Date.now();
  const waited = (at: string | null) =>
    at ? T.backlog.waited(now - new Date(at).getTime(), formatDateTimeShort(at)) : T.backlog.none;
  const { received, backlog } = status;
  return (
    <Box sx={{ display: 'grid', gap: 3 }}>
      <SubscriberSection status={status} />
      <Box
        sx={{
          display: 'grid',
          gap: 3,
          gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' },
        }}
      >
        <Section title={T.received.heading}>
          <DetailList
            items={[
              {
                label: T.received.last,
                value:
                  received.lastAt && received.lastDataType
                    ? T.received.lastValue(
                        formatDateTimeShort(received.lastAt),
                        received.lastDataType,
                      )
                    : T.received.none,
              },
              { label: T.received.last24Hours, value: String(received.last24Hours) },
            ]}
          />
        </Section>
        <Section title={T.backlog.heading}>
          <DetailList
            items={[
              { label: T.backlog.unresolved, value: String(backlog.unresolved) },
              { label: T.backlog.oldestUnresolved, value: waited(backlog.oldestUnresolvedAt) },
              { label: T.backlog.pending, value: String(backlog.pending) },
              { label: T.backlog.processing, value: String(backlog.processing) },
              {
                label: T.backlog.oldestPending,
                value: waited(backlog.oldestPendingAt),
                wide: true,
              },
            ]}
          />
        </Section>
      </Box>
      <RefusalsSection refusals={status.refusals} />
    </Box>
  );
}

function Section({
  title,
  aside,
  children,
}: {
  title: string;
  aside?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 1.5, mb: 1 }}>
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
          {title}
        </Typography>
        {aside}
      </Box>
      {children}
    </Box>
  );
}

function ToneChip({ label, tone }: { label: string; tone: Tone }) {
  const colours = TONES[tone];
  return (
    <Chip
      size="small"
      label={label}
      sx={{ bgcolor: colours.bg, color: colours.fg, border: `1px solid ${colours.fg}33` }}
    />
  );
}

const CHIPS: Record<SubscriberStatus['status'], { label: string; tone: Tone }> = {
  registered: { label: T.subscriber.registered, tone: 'good' },
  not_registered: { label: T.subscriber.notRegistered, tone: 'bad' },
  not_configured: { label: T.subscriber.notConfigured, tone: 'warn' },
  lookup_failed: { label: T.subscriber.lookupFailed, tone: 'warn' },
};

function SubscriberSection({ status }: { status: NotificationStatus }) {
  const subscriber = status.subscriber;
  const chip = CHIPS[subscriber.status];
  const checked = new Date(status.checkedAt).toLocaleTimeString('en-US', {
    hour: 'numeric',
    minute: '2-digit',
  });
  return (
    <Section
      title={T.subscriber.heading}
      aside={
        <>
          <ToneChip label={chip.label} tone={chip.tone} />
          {subscriber.status !== 'not_configured' && (
            <Typography variant="caption" color="text.secondary">
              {T.checkedAt(checked)}
            </Typography>
          )}
        </>
      }
    >
      <Box sx={{ display: 'grid', gap: 1.5 }}>
        {!status.secretConfigured && <Alert severity="error">{T.subscriber.secretMissing}</Alert>}
        <SubscriberDetails subscriber={subscriber} endpointUrl={status.endpointUrl} />
      </Box>
    </Section>
  );
}

function SubscriberDetails({
  subscriber,
  endpointUrl,
}: {
  subscriber: SubscriberStatus;
  endpointUrl: string;
}) {
  const S = T.subscriber;
  switch (subscriber.status) {
    case 'not_configured':
      return (
        <Alert severity="warning">{S.notConfiguredText(subscriber.missing.join(' and '))}</Alert>
      );
    case 'lookup_failed':
      return (
        <Alert severity="warning">
          <Box sx={{ fontWeight: 500 }}>{S.failures[subscriber.reason]}</Box>
          {subscriber.detail && <Box sx={{ overflowWrap: 'anywhere' }}>{subscriber.detail}</Box>}
        </Alert>
      );
    case 'not_registered':
      return (
        <Alert severity="error">
          <Box>{S.notRegisteredText}</Box>
          {subscriber.others.length > 0 && (
            <Box sx={{ overflowWrap: 'anywhere' }}>{S.others(subscriber.others.join(', '))}</Box>
          )}
        </Alert>
      );
    case 'registered': {
      const types = subscriber.configs.flatMap((c) => c.dataTypes);
      const policies = [...new Set(subscriber.configs.map((c) => c.subscriptionCreatePolicy))];
      return (
        <>
          {!subscriber.isThisEndpoint && (
            <Alert severity="error">{S.otherEndpoint(endpointUrl)}</Alert>
          )}
          {subscriber.missingDataTypes.length > 0 && (
            <Alert severity="warning">
              {S.missingDataTypes(subscriber.missingDataTypes.join(', '))}
            </Alert>
          )}
          <DetailList
            items={[
              { label: S.name, value: subscriber.name },
              { label: S.state, value: subscriber.state },
              {
                label: S.endpoint,
                value: subscriber.isThisEndpoint
                  ? `${subscriber.endpointUri} (${S.thisEndpoint})`
                  : subscriber.endpointUri,
                wide: true,
              },
              { label: S.secret, value: subscriber.secretSet ? S.secretSet : S.secretNotSet },
              {
                label: S.policy,
                value: policies.map((p) => S.policies[p] ?? p).join('; ') || S.noDataTypes,
              },
              {
                label: S.dataTypes(types.length),
                value: types.length ? types.join(', ') : S.noDataTypes,
                wide: true,
              },
            ]}
          />
        </>
      );
    }
  }
}

function RefusalsSection({ refusals }: { refusals: NotificationStatus['refusals'] }) {
  const R = T.refusals;
  return (
    <Section title={R.heading}>
      {refusals.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {R.none}
        </Typography>
      ) : (
        // No horizontal scrolling on a phone: the explanations wrap, even inside a setting's name.
        <Table size="small" aria-label={R.tableLabel}>
          <TableHead>
            <TableRow>
              <TableCell>{R.reason}</TableCell>
              <TableCell align="right" sx={{ whiteSpace: { sm: 'nowrap' } }}>
                {R.today}
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: { sm: 'nowrap' } }}>
                {R.last7Days}
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {refusals.map((row) => (
              <TableRow key={row.reason}>
                <TableCell component="th" scope="row" sx={{ overflowWrap: 'anywhere' }}>
                  <Typography variant="body2" sx={{ fontWeight: 500 }}>
                    {R.reasons[row.reason].label}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    {R.reasons[row.reason].meaning}
                  </Typography>
                </TableCell>
                <TableCell align="right" sx={{ verticalAlign: 'top' }}>
                  {row.today}
                </TableCell>
                <TableCell align="right" sx={{ verticalAlign: 'top' }}>
                  {row.last7Days}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Section>
  );
}
