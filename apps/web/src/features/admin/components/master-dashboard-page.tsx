import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Snackbar from '@mui/material/Snackbar';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { ADMIN_MESSAGES, ADMIN_TEXTS, AUDIT_TEXTS } from '@research/contracts';
import { type ReactNode, useId, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useApplicationCount, useTotalApplicationCount } from '../api/get-applications';
import { useActiveResearcherCount } from '../api/get-researchers';
import { FailureAlert } from './admin-ui';
import { ApprovedResearchersTab } from './approved-researchers-tab';
import { NotificationStatusCard } from './notification-status-card';
import { PendingApplicationsTab } from './pending-applications-tab';
import { RejectedApplicationsTab } from './rejected-applications-tab';

const TABS = ['pending', 'approved', 'rejected'] as const;
type TabName = (typeof TABS)[number];

const isTabName = (value: string | null): value is TabName => TABS.includes(value as TabName);

/**
 * /master/dashboard (master only): four counts from `limit=1` calls, then the pending,
 * approved and rejected lists as tabs. The open tab lives in the URL (?tab=), so a reload or the
 * back button keeps it. Below them, the state of Google Health's change notifications.
 */
export default function MasterDashboardPage() {
  const idPrefix = useId();
  const [params, setParams] = useSearchParams();
  const tabParam = params.get('tab');
  const tab: TabName = isTabName(tabParam) ? tabParam : 'pending';
  const [notice, setNotice] = useState<string | null>(null);

  const pending = useApplicationCount('pending');
  const rejected = useApplicationCount('rejected');
  const active = useActiveResearcherCount();
  const total = useTotalApplicationCount();

  const counts = [pending, rejected, active, total];
  const countsFailed = counts.find((query) => query.isError);

  const tabId = (name: TabName) => `${idPrefix}-tab-${name}`;
  const panelId = (name: TabName) => `${idPrefix}-panel-${name}`;
  const selectTab = (name: TabName) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (name === 'pending') next.delete('tab');
        else next.set('tab', name);
        return next;
      },
      { replace: true },
    );

  return (
    <Box
      component="section"
      sx={{ maxWidth: 'lg', mx: 'auto', px: { xs: 2, sm: 3 }, py: { xs: 4, md: 6 } }}
    >
      <Typography
        variant="h4"
        component="h1"
        gutterBottom
        sx={{ fontSize: { xs: '1.6rem', md: '2.125rem' } }}
      >
        {ADMIN_TEXTS.title}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {ADMIN_TEXTS.subtitle}
      </Typography>
      <Button component={RouterLink} to="/master/audit" variant="outlined" sx={{ mb: 4 }}>
        {AUDIT_TEXTS.platformLink}
      </Button>

      {countsFailed && (
        <FailureAlert title={ADMIN_MESSAGES.loadDashboardFailed} error={countsFailed.error} />
      )}

      <Box
        component="ul"
        aria-label={ADMIN_TEXTS.statsLabel}
        sx={{
          listStyle: 'none',
          p: 0,
          m: 0,
          mb: 4,
          display: 'grid',
          gap: { xs: 1.5, sm: 2 },
          gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' },
        }}
      >
        {(
          [
            [ADMIN_TEXTS.stats.pending, pending, '#B26A00'],
            [ADMIN_TEXTS.stats.active, active, '#2E7D32'],
            [ADMIN_TEXTS.stats.total, total, 'secondary.main'],
            [ADMIN_TEXTS.stats.rejected, rejected, 'primary.main'],
          ] as const
        ).map(([label, count, accent]) => (
          <StatCard
            key={label}
            label={label}
            value={count.data}
            failed={count.isError}
            accent={accent}
          />
        ))}
      </Box>

      <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
        <Tabs
          value={tab}
          onChange={(_, value: TabName) => selectTab(value)}
          aria-label={ADMIN_TEXTS.tabs.label}
          variant="scrollable"
          scrollButtons="auto"
          allowScrollButtonsMobile
          sx={{ borderBottom: 1, borderColor: 'divider' }}
        >
          <Tab
            value="pending"
            id={tabId('pending')}
            aria-controls={panelId('pending')}
            label={ADMIN_TEXTS.tabs.pending(pending.data)}
          />
          <Tab
            value="approved"
            id={tabId('approved')}
            aria-controls={panelId('approved')}
            label={ADMIN_TEXTS.tabs.approved(active.data)}
          />
          <Tab
            value="rejected"
            id={tabId('rejected')}
            aria-controls={panelId('rejected')}
            label={ADMIN_TEXTS.tabs.rejected(rejected.data)}
          />
        </Tabs>
        <Box
          role="tabpanel"
          id={panelId(tab)}
          aria-labelledby={tabId(tab)}
          sx={{ p: { xs: 1, sm: 2 } }}
        >
          {tab === 'pending' && (
            <PendingApplicationsTab
              onReviewed={(action) =>
                setNotice(
                  action === 'approve'
                    ? ADMIN_TEXTS.success.approved
                    : ADMIN_TEXTS.success.rejected,
                )
              }
            />
          )}
          {tab === 'approved' && <ApprovedResearchersTab />}
          {tab === 'rejected' && (
            <RejectedApplicationsTab onReset={() => setNotice(ADMIN_TEXTS.success.reset)} />
          )}
        </Box>
      </Paper>

      <NotificationStatusCard />

      <Snackbar
        open={notice !== null}
        autoHideDuration={5000}
        // Any click elsewhere dismisses it too: on phones it would otherwise cover the buttons of
        // the next full-screen dialog.
        onClose={() => setNotice(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      >
        <Alert severity="success" variant="filled" onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      </Snackbar>
    </Box>
  );
}

interface StatCardProps {
  label: string;
  value: number | undefined;
  failed: boolean;
  /** Colour of the card's top edge. */
  accent: string;
}

function StatCard({ label, value, failed, accent }: StatCardProps) {
  const labelId = useId();
  let shown: ReactNode;
  if (value !== undefined) shown = value;
  else if (failed) shown = ADMIN_TEXTS.notSpecified;
  else shown = <Skeleton width={48} />;
  return (
    <Box component="li" sx={{ minWidth: 0 }}>
      <Card
        aria-labelledby={labelId}
        role="group"
        sx={{ height: '100%', borderTop: 4, borderTopColor: accent }}
      >
        <CardContent sx={{ p: { xs: 2, sm: 2.5 }, '&:last-child': { pb: { xs: 2, sm: 2.5 } } }}>
          <Typography
            id={labelId}
            variant="body2"
            color="text.secondary"
            sx={{ fontWeight: 500, mb: 0.5 }}
          >
            {label}
          </Typography>
          <Typography
            variant="h4"
            component="p"
            data-testid="stat-value"
            sx={{ fontSize: { xs: '1.75rem', sm: '2.125rem' } }}
          >
            {shown}
          </Typography>
        </CardContent>
      </Card>
    </Box>
  );
}
