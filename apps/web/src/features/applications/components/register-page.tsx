import Typography from '@mui/material/Typography';
import { REDIRECT_DELAYS_MS, type ResearcherApplicationInput } from '@research/contracts';
import { useEffect, useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { LoadingIndicator } from '../../../components/loading-indicator';
import { useSecureAuth } from '../../../lib/auth/auth-provider';
import { ROUTES, registerEntryTarget } from '../../../lib/auth/routing';
import { useUser } from '../../../lib/auth/user-provider';
import { useSubmitApplication } from '../api/submit-application';
import { REGISTER_TEXTS } from '../texts';
import { ApplicationForm, type FormValues } from './application-form';
import { ApplicationSubmitted } from './application-submitted';
import { PageCard } from './page-card';

/**
 * /researcher/register: the researcher application form of spec 000 §2. On entry a master goes
 * to the master dashboard, an approved researcher to the researcher dashboard and a pending one
 * to the status page; a rejected researcher (or one without an application) may apply.
 */
export default function RegisterPage() {
  const { user, token } = useSecureAuth();
  const { profile, loading, refresh } = useUser();
  const navigate = useNavigate();
  const submit = useSubmitApplication();
  const [submittedAs, setSubmittedAs] = useState<string | null>(null);

  // After a success the panel stays for the spec's 3 seconds, then the status page takes over.
  useEffect(() => {
    if (submittedAs === null) return;
    const timer = setTimeout(
      () => navigate(ROUTES.applicationStatus, { replace: true }),
      REDIRECT_DELAYS_MS.applicationSubmit,
    );
    return () => clearTimeout(timer);
  }, [submittedAs, navigate]);

  if (submittedAs !== null) {
    // Checked before the entry redirects: the refreshed profile says 'pending' now, and the
    // success panel must stay for its 3 seconds rather than jump to the status page at once.
    return (
      <PageCard maxWidth={720}>
        <ApplicationSubmitted email={submittedAs} />
      </PageCard>
    );
  }
  if (loading) return <LoadingIndicator />;
  const target = registerEntryTarget(profile);
  if (target) return <Navigate to={target} replace />;

  const lockedEmail = user?.email?.trim() || null;
  const initialValues: FormValues = {
    // The names come from the account (or from a rejected application, through the profile).
    firstName: profile?.firstName ?? '',
    lastName: profile?.lastName ?? '',
    email: lockedEmail ?? profile?.email ?? '',
    dateOfBirth: '',
    phoneNumber: '',
    institution: profile?.institution ?? '',
    position: profile?.position ?? '',
    department: profile?.department ?? '',
    researchArea: '',
    description: '',
  };

  const onSubmit = async (application: ResearcherApplicationInput, documents: File[]) => {
    await submit.mutateAsync({ application, documents, token });
    setSubmittedAs(application.email);
    // Navigation and guards read the new 'pending' status from the profile.
    refresh();
  };

  return (
    <PageCard maxWidth={880}>
      <Typography variant="h4" component="h1" sx={{ fontSize: { xs: '1.6rem', md: '2.125rem' } }}>
        {REGISTER_TEXTS.title}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        {REGISTER_TEXTS.intro}
      </Typography>
      <ApplicationForm
        initialValues={initialValues}
        lockedEmail={lockedEmail}
        submitting={submit.isPending}
        onSubmit={onSubmit}
      />
    </PageCard>
  );
}
