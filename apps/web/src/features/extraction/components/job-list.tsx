import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import {
  EXTRACTION_MESSAGES,
  type ExtractionJob,
  EXTRACTION_PANEL_TEXTS as T,
  truncateJobName,
} from '@research/contracts';

const statusColor = (status: ExtractionJob['status']) =>
  status === 'completed'
    ? 'success'
    : status === 'failed'
      ? 'error'
      : status === 'running'
        ? 'info'
        : status === 'stalled'
          ? 'warning'
          : 'default';

export interface JobListProps {
  jobs: ExtractionJob[];
  loading: boolean;
  onDetail: (id: string) => void;
}

/** The study's extraction jobs with their live progress. */
export function JobList({ jobs, loading, onDetail }: JobListProps) {
  return (
    <Box>
      <Typography variant="subtitle1" component="h3" gutterBottom>
        {T.jobsTitle}
      </Typography>
      {loading ? (
        <LinearProgress />
      ) : jobs.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {T.noJobs}
        </Typography>
      ) : (
        <Stack spacing={1.5} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {jobs.map((job) => (
            <JobItem key={job.id} job={job} onDetail={onDetail} />
          ))}
        </Stack>
      )}
    </Box>
  );
}

function JobItem({ job, onDetail }: { job: ExtractionJob; onDetail: (id: string) => void }) {
  // Finished, but some types were skipped because the participant did not share them.
  const gaps = job.status === 'completed' && job.skippedDataTypes.length > 0;
  return (
    <Box component="li" data-testid="extraction-job">
      <Stack direction="row" spacing={1} alignItems="center" sx={{ flexWrap: 'wrap' }}>
        <Typography variant="body2" sx={{ fontWeight: 500 }} title={job.extractionName}>
          {truncateJobName(job.extractionName)}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ flex: 1, minWidth: 0 }}>
          {job.participantName || job.participantId}
        </Typography>
        {job.status === 'stalled' ? (
          // Its worker stopped; the server hands the job to another one: say why.
          <Tooltip title={job.error ?? ''}>
            <Chip size="small" color="warning" label={job.status} />
          </Tooltip>
        ) : gaps ? (
          <Chip size="small" color="warning" label={T.completedWithGaps} />
        ) : (
          <Chip size="small" color={statusColor(job.status)} label={job.status} />
        )}
        <Button size="small" onClick={() => onDetail(job.id)}>
          {T.detail}
        </Button>
      </Stack>
      <Stack direction="row" spacing={1} alignItems="center">
        <LinearProgress
          variant="determinate"
          value={job.progress}
          sx={{ flex: 1 }}
          aria-label={T.jobProgress(truncateJobName(job.extractionName))}
        />
        <Typography variant="caption" color="text.secondary" sx={{ minWidth: 90 }}>
          {T.callsProgress(job.callsDone, job.callsPlanned)}
        </Typography>
      </Stack>
      {job.status === 'failed' && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {job.error ?? EXTRACTION_MESSAGES.jobRequestFailed}
        </Alert>
      )}
      {gaps && (
        <Typography variant="caption" color="text.secondary">
          {T.gapsNote(job.skippedDataTypes.join(', '))}
        </Typography>
      )}
      {job.status === 'stalled' && job.error && (
        <Typography variant="caption" color="warning.main">
          {job.error}
        </Typography>
      )}
    </Box>
  );
}
