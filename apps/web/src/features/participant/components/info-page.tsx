import CheckCircleOutline from '@mui/icons-material/CheckCircleOutline';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import {
  PARTICIPANT_INFO_TEXTS,
  type ParticipantSession,
  REDIRECT_DELAYS_MS,
} from '@research/contracts';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { clearEnrolment, readEnrolment, saveSession } from '../session';
import { ParticipantPage } from './participant-page';
import { ProfileForm } from './profile-form';

/**
 * /participant/info: 'Complete Your Profile'. The wearable callback sends the
 * participant here with participantId and studyCode; the rest (e-mail, phone, names, the
 * session) comes from this tab's enrolment storage, or the session from the navigation state. After saving, a success panel, then
 * /participant/success after 3 seconds.
 */
export default function InfoPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const handed = (location.state ?? null) as {
    participantId?: string;
    studyCode?: string;
    /** The session the wearable callback answers, when the callback page hands it on. */
    session?: ParticipantSession;
  } | null;
  const [stored] = useState(() => {
    const session = handed?.session;
    if (session && session.participantId === handed?.participantId) saveSession(session);
    return readEnrolment();
  });
  const participantId = handed?.participantId ?? stored?.participantId;
  const studyCode = handed?.studyCode ?? stored?.studyCode;
  const mine = stored && stored.participantId === participantId ? stored : null;
  const [saved, setSaved] = useState<string | null>(null);

  useEffect(() => {
    if (!saved) return;
    const timer = setTimeout(
      () => navigate('/participant/success', { state: { participantId: saved } }),
      REDIRECT_DELAYS_MS.profileSubmit,
    );
    return () => clearTimeout(timer);
  }, [saved, navigate]);

  return (
    <ParticipantPage
      title={PARTICIPANT_INFO_TEXTS.title}
      subtitle={saved ? undefined : PARTICIPANT_INFO_TEXTS.subtitle}
    >
      {saved ? (
        <Box
          role="status"
          sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2, py: 3 }}
        >
          <CheckCircleOutline color="success" sx={{ fontSize: 56 }} aria-hidden />
          <Typography variant="h5" component="h2">
            {PARTICIPANT_INFO_TEXTS.successTitle}
          </Typography>
          <Typography align="center">{PARTICIPANT_INFO_TEXTS.successBody}</Typography>
          <LinearProgress sx={{ width: '100%', maxWidth: 320 }} aria-hidden />
        </Box>
      ) : (
        <ProfileForm
          participantId={participantId}
          studyCode={studyCode}
          email={mine?.email}
          phoneNumber={mine?.phoneNumber}
          firstName={mine?.firstName}
          lastName={mine?.lastName}
          onSaved={(result) => {
            clearEnrolment();
            setSaved(result.participantId);
          }}
        />
      )}
    </ParticipantPage>
  );
}
