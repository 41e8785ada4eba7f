import Cancel from '@mui/icons-material/Cancel';
import HourglassTop from '@mui/icons-material/HourglassTop';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import {
  APPLICATION_MESSAGES,
  APPLICATION_STATUS_TEXTS,
  formatDateShort,
  type ResearcherApplicationView,
  type UserProfile,
} from '@research/contracts';
import { type ReactNode, useEffect, useRef } from 'react';
import { Navigate, Link as RouterLink } from 'react-router';
import { LoadingIndicator } from '../../../components/loading-indicator';
import { useSecureAuth } from '../../../lib/auth/auth-provider';
import { isApprovedResearcher, isMaster, ROUTES } from '../../../lib/auth/routing';
import { useUser } from '../../../lib/auth/user-provider';
import { ApplicationStatusError, useApplicationStatus } from '../api/application-status';
import { PageCard } from './page-card';

/**
 * /researcher/application-status: pending and rejected applications are shown
 * here; without an application the user goes to the form, approved researchers to their
 * dashboard, the master to the master dashboard.
 *
 * The profile decides first (it is already loaded, so the page never flashes); the application
 * read here adds the rejection reason and dates. When the two disagree the application is the
 * fresher (e.g. just submitted, or reviewed since the profile loaded): it wins and the profile is
 * refreshed so that navigation and guards agree.
 */
export default function ApplicationStatusPage() {
  const { token } = useSecureAuth();
  const { profile, loading, refresh } = useUser();
  // Only for the accounts that stay here; the master and approved researchers move on.
  const query = useApplicationStatus(
    token,
    !loading && !isMaster(profile) && !isApprovedResearcher(profile),
  );
  const application = query.data ?? null;

  // What the server says now: the application's status, 'noprofile' when there is none.
  const current = query.isSuccess ? (application?.status ?? 'noprofile') : null;
  const refreshedFor = useRef<string | null>(null);
  useEffect(() => {
    if (current === null || profile === null || current === profile.status) return;
    if (refreshedFor.current === current) return;
    refreshedFor.current = current;
    refresh();
  }, [current, profile, refresh]);

  if (loading) return <LoadingIndicator />;
  if (isMaster(profile)) return <Navigate to={ROUTES.masterDashboard} replace />;
  if (isApprovedResearcher(profile)) return <Navigate to={ROUTES.researcherDashboard} replace />;

  const status = current ?? profile?.status ?? 'noprofile';
  if (status === 'noprofile') {
    // Right after a submission the profile may still say 'noprofile': ask the server first.
    if (query.isPending) return <LoadingIndicator />;
    return <Navigate to={ROUTES.register} replace />;
  }
  // Approved since the profile loaded: wait for the refreshed profile, which the guard of the
  // researcher dashboard will accept.
  if (status === 'approved') return <LoadingIndicator />;

  const person = applicant(application, profile);
  if (status === 'pending') {
    return <PendingApplication person={person} submittedAt={application?.submittedAt} />;
  }
  if (status === 'rejected') {
    return (
      <RejectedApplication
        person={person}
        application={application}
        loadingDetails={query.isPending}
        loadError={query.isError ? loadErrorText(query.error) : null}
      />
    );
  }
  return (
    <PageCard maxWidth={720}>
      <Alert severity="error">{APPLICATION_MESSAGES.invalidStatus}</Alert>
    </PageCard>
  );
}

function loadErrorText(error: unknown): string {
  return error instanceof ApplicationStatusError
    ? error.message
    : APPLICATION_MESSAGES.loadRejectionFailed;
}

interface Applicant {
  name: string;
  email: string;
  institution: string;
}

function applicant(
  application: ResearcherApplicationView | null,
  profile: UserProfile | null,
): Applicant {
  const source = application ?? profile;
  return {
    name: [source?.firstName, source?.lastName].filter(Boolean).join(' '),
    email: source?.email ?? '',
    institution: source?.institution ?? '',
  };
}

function PendingApplication({ person, submittedAt }: { person: Applicant; submittedAt?: string }) {
  const submitted = formatDateShort(submittedAt);
  return (
    <PageCard maxWidth={720}>
      <StatusHeader
        icon={<HourglassTop sx={{ fontSize: 36 }} />}
        tone="warning"
        title={APPLICATION_STATUS_TEXTS.pendingTitle}
        chip={
          // Dark amber on a light wash: white on MUI's orange misses the AA contrast ratio.
          <Chip
            label={APPLICATION_STATUS_TEXTS.pendingChip}
            sx={{ bgcolor: 'rgba(237, 108, 2, 0.14)', color: '#7A3E00' }}
          />
        }
        intro={APPLICATION_STATUS_TEXTS.pendingIntro}
      />
      <Details
        rows={[
          [APPLICATION_STATUS_TEXTS.name, person.name],
          [APPLICATION_STATUS_TEXTS.email, person.email],
          [APPLICATION_STATUS_TEXTS.institution, person.institution],
          ...(submitted ? [[APPLICATION_STATUS_TEXTS.submitted, submitted] as const] : []),
        ]}
      />
      <Alert severity="warning" sx={{ mt: 3 }}>
        <AlertTitle>{APPLICATION_STATUS_TEXTS.pendingWarningTitle}</AlertTitle>
        <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
          {APPLICATION_STATUS_TEXTS.pendingWarnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </Box>
      </Alert>
    </PageCard>
  );
}

interface RejectedApplicationProps {
  person: Applicant;
  application: ResearcherApplicationView | null;
  loadingDetails: boolean;
  loadError: string | null;
}

function RejectedApplication({
  person,
  application,
  loadingDetails,
  loadError,
}: RejectedApplicationProps) {
  const reason = application?.reviewNotes?.trim() || APPLICATION_MESSAGES.noReason;
  const reviewed =
    formatDateShort(application?.reviewedAt) || APPLICATION_MESSAGES.dateNotAvailable;
  return (
    <PageCard maxWidth={720}>
      <StatusHeader
        icon={<Cancel sx={{ fontSize: 36 }} />}
        tone="error"
        title={APPLICATION_STATUS_TEXTS.rejectedTitle}
        chip={
          <Chip label={APPLICATION_STATUS_TEXTS.rejectedChip} color="error" variant="outlined" />
        }
        intro={APPLICATION_STATUS_TEXTS.rejectedIntro}
      />
      <Details
        rows={[
          [APPLICATION_STATUS_TEXTS.name, person.name],
          [APPLICATION_STATUS_TEXTS.email, person.email],
          [APPLICATION_STATUS_TEXTS.institution, person.institution],
        ]}
      />
      {loadingDetails ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 3 }}>
          <CircularProgress size={28} aria-label={APPLICATION_STATUS_TEXTS.loadingDetails} />
        </Box>
      ) : loadError ? (
        <Alert severity="error" sx={{ mt: 3 }}>
          {loadError}
        </Alert>
      ) : (
        <Box
          sx={{
            mt: 3,
            p: 2.5,
            borderRadius: 1.5,
            bgcolor: 'rgba(140, 21, 21, 0.04)',
            border: 1,
            borderColor: 'rgba(140, 21, 21, 0.2)',
          }}
        >
          <Typography variant="subtitle2" component="h2" color="text.secondary">
            {APPLICATION_STATUS_TEXTS.reason}
          </Typography>
          <Typography sx={{ mt: 0.5, whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
            {reason}
          </Typography>
          <Typography variant="subtitle2" component="h2" color="text.secondary" sx={{ mt: 2 }}>
            {APPLICATION_STATUS_TEXTS.reviewDate}
          </Typography>
          <Typography sx={{ mt: 0.5 }}>{reviewed}</Typography>
        </Box>
      )}
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 3 }}>
        <Button
          component={RouterLink}
          to={ROUTES.register}
          variant="contained"
          size="large"
          sx={{ width: { xs: '100%', sm: 'auto' } }}
        >
          {APPLICATION_STATUS_TEXTS.resubmit}
        </Button>
      </Box>
    </PageCard>
  );
}

interface StatusHeaderProps {
  icon: ReactNode;
  tone: 'warning' | 'error';
  title: string;
  chip: ReactNode;
  intro: string;
}

function StatusHeader({ icon, tone, title, chip, intro }: StatusHeaderProps) {
  return (
    <Box sx={{ textAlign: 'center' }}>
      <Box
        aria-hidden
        sx={{
          width: 64,
          height: 64,
          mx: 'auto',
          borderRadius: '50%',
          display: 'grid',
          placeItems: 'center',
          color: `${tone}.dark`,
          bgcolor: tone === 'warning' ? 'rgba(237, 108, 2, 0.12)' : 'rgba(211, 47, 47, 0.1)',
        }}
      >
        {icon}
      </Box>
      <Typography
        variant="h4"
        component="h1"
        sx={{ mt: 2, fontSize: { xs: '1.6rem', md: '2.125rem' } }}
      >
        {title}
      </Typography>
      <Box sx={{ mt: 1.5 }}>{chip}</Box>
      <Typography color="text.secondary" sx={{ mt: 2, maxWidth: 560, mx: 'auto' }}>
        {intro}
      </Typography>
    </Box>
  );
}

function Details({ rows }: { rows: ReadonlyArray<readonly [string, string]> }) {
  return (
    <Box
      component="dl"
      sx={{
        mt: 3,
        mb: 0,
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', sm: '140px 1fr' },
        columnGap: 2,
        rowGap: { xs: 0.25, sm: 1.5 },
        borderTop: 1,
        borderColor: 'divider',
        pt: 3,
      }}
    >
      {rows.map(([label, value]) => (
        <Box key={label} sx={{ display: 'contents' }}>
          <Typography
            component="dt"
            variant="body2"
            color="text.secondary"
            sx={{ mt: { xs: 1, sm: 0 } }}
          >
            {label}
          </Typography>
          <Typography component="dd" sx={{ m: 0, fontWeight: 500, overflowWrap: 'anywhere' }}>
            {value || APPLICATION_STATUS_TEXTS.notGiven}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
