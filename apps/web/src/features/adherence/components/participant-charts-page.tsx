import ArrowBack from '@mui/icons-material/ArrowBack';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { ADHERENCE_TEXTS, PARTICIPANT_CHARTS_TEXTS as T } from '@research/contracts';
import { lazy, Suspense, useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { LoadingIndicator } from '../../../components/loading-indicator';
import { ApiError } from '../../../lib/api-client';
import { useChartsStudy, useParticipantHeading } from '../api/participant-charts';
import { dayCount, presetRange, todayUtc } from '../model';

// @mui/x-charts comes with this chunk only: no other screen loads it.
const ParticipantCharts = lazy(() => import('./participant-charts'));

/** The study screen's tab index of Adherence (the sixth tab). */
const ADHERENCE_TAB = 5;

type ChartsPreset = '28' | '90' | 'whole';

/**
 * /researcher/study/:studyId/participant/:participantId — one participant's daily steps, resting
 * heart rate, sleep by stage and wear time over a range, and one day's heart rate.
 */
export default function ParticipantChartsPage() {
  const { studyId = '', participantId = '' } = useParams();
  const heading = useParticipantHeading(participantId);
  const study = useChartsStudy(studyId);
  const [preset, setPreset] = useState<ChartsPreset>('28');
  const today = todayUtc();
  const range = presetRange(preset, study.data?.createdAt ?? today, today);

  const notFound =
    heading.error instanceof ApiError &&
    (heading.error.status === 404 || heading.error.status === 403);
  const name = heading.data
    ? [heading.data.firstName, heading.data.lastName].filter(Boolean).join(' ') ||
      heading.data.participantId
    : null;

  return (
    <Box
      component="section"
      sx={{ maxWidth: 'lg', mx: 'auto', px: { xs: 2, sm: 3 }, py: { xs: 3, md: 4 } }}
    >
      <Button
        component={RouterLink}
        to={`/researcher/study/${studyId}?tab=${ADHERENCE_TAB}`}
        startIcon={<ArrowBack />}
        sx={{ mb: 2, ml: -1 }}
      >
        {T.backToStudy}
      </Button>
      {notFound ? (
        <Paper variant="outlined" sx={{ textAlign: 'center', py: 8, px: 2 }}>
          <Typography variant="h5" component="h1" gutterBottom>
            {T.notFound}
          </Typography>
          <Typography color="text.secondary">{T.notFoundBody}</Typography>
        </Paper>
      ) : (
        <>
          <Typography variant="h4" component="h1" sx={{ overflowWrap: 'anywhere' }}>
            {name ?? T.title}
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 2, overflowWrap: 'anywhere' }}>
            {[T.title, heading.data?.participantId, study.data?.name].filter(Boolean).join(' · ')}
          </Typography>
          {heading.isError && !notFound && <Alert severity="error">{T.loadFailed}</Alert>}
          <Box sx={{ mb: 2 }}>
            <ToggleButtonGroup
              size="small"
              exclusive
              value={preset}
              onChange={(_, next: ChartsPreset | null) => next && setPreset(next)}
              aria-label={T.range}
              sx={{ flexWrap: 'wrap' }}
            >
              <ToggleButton value="28">{ADHERENCE_TEXTS.range.last28}</ToggleButton>
              <ToggleButton value="90">{ADHERENCE_TEXTS.range.last90}</ToggleButton>
              <ToggleButton value="whole" disabled={!study.data}>
                {ADHERENCE_TEXTS.range.whole}
              </ToggleButton>
            </ToggleButtonGroup>
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
              {ADHERENCE_TEXTS.range.shown(range.from, range.to, dayCount(range.from, range.to))}
            </Typography>
          </Box>
          <Suspense fallback={<LoadingIndicator message={T.loading} />}>
            <ParticipantCharts participantId={participantId} from={range.from} to={range.to} />
          </Suspense>
        </>
      )}
    </Box>
  );
}
