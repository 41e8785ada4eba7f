import Alert from '@mui/material/Alert';
import { CONSENT_STATE_LABELS } from '@research/contracts';
import { useConsentSignatures } from '../../lib/consent/consent-api';

/** Participants whose data is held back for consent, named by id (the Adherence tab). */
export function HeldBackNote({ studyId }: { studyId: string }) {
  const { data } = useConsentSignatures(studyId);
  const held = data?.heldBack ?? [];
  if (held.length === 0) return null;
  const of = (state: 'pending' | 'withdrawn') =>
    held.filter((h) => h.state === state).map((h) => h.participantId);
  return (
    <Alert severity="warning" sx={{ mt: 1 }}>
      {CONSENT_STATE_LABELS.heldBackNote(of('pending'), of('withdrawn'))}
    </Alert>
  );
}
