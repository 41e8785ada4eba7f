import Typography from '@mui/material/Typography';
import {
  REDIRECT_DELAYS_MS,
  REGISTER_TEXTS,
  type ResearcherApplicationInput,
} from '@research/contracts';
import { useEffect, useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { LoadingIndicator } from '../../../components/loading-indicator';
import { useSecureAuth } from '../../../lib/auth/auth-provider';
import { ROUTES, registerEntryTarget } from '../../../lib/auth/routing';
import { useUser } from '../../../lib/auth/user-provider';
import { usePreviousApplication } from '../api/previous-application';
import { useSubmitApplication } from '../api/submit-application';
import { ApplicationForm, type FormValues } from './application-form';
import { ApplicationSubmitted } from './application-submitted';
import { ConfirmEmailNotice } from './confirm-email-notice';
import { PageCard } from './page-card';

/**
 * /researcher/register: the researcher application form. On entry a master goes
 * to the master dashboard, an approved researcher to the researcher dashboard and a pending one
 * to the status page; a rejected researcher (or one without an application) may apply.
 */
export default function RegisterPage() {
  const { user, token } = useSecureAuth();
  const { profile, loading, refresh } = useUser();
  const navigate = useNavigate();
  const submit = useSubmitApplication();
  const [submittedAs, setSubmittedAs] = useState<string | null>(null);
  // Whoever may apply starts from everything their last rejected application said, also after
  // a master's reset archived it (the status is then 'noprofile' again).
  const mayApply = !loading && profile !== null && registerEntryTarget(profile) === null;
  const previous = usePreviousApplication(token, mayApply && submittedAs === null);

  // After a success the panel stays for the product's 3 seconds, then the status page takes over.
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
  // Fetching, not pending: the form takes its values once, so it waits for the fresh answer.
  if (loading || (mayApply && previous.isFetching)) return <LoadingIndicator />;
  const target = registerEntryTarget(profile);
  if (target) return <Navigate to={target} replace />;

  const lockedEmail = user?.email?.trim() || null;
  // A failed look-up only costs the prefill: the form still opens with what the profile knows.
  const last = previous.data ?? null;
  const initialValues: FormValues = {
    firstName: last?.firstName ?? profile?.firstName ?? '',
    lastName: last?.lastName ?? profile?.lastName ?? '',
    email: lockedEmail ?? profile?.email ?? '',
    dateOfBirth: last?.dateOfBirth ?? '',
    phoneNumber: last?.phoneNumber ?? '',
    institution: last?.institution ?? profile?.institution ?? '',
    position: last?.position ?? profile?.position ?? '',
    department: last?.department ?? profile?.department ?? '',
    researchArea: last?.researchArea ?? '',
    description: last?.description ?? '',
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
      {profile?.emailVerified === false && <ConfirmEmailNotice />}
      <ApplicationForm
        initialValues={initialValues}
        lockedEmail={lockedEmail}
        submitting={submit.isPending}
        onSubmit={onSubmit}
      />
    </PageCard>
  );
}
