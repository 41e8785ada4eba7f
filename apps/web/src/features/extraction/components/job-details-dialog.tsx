import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { EXTRACTION_PANEL_TEXTS as T } from '@research/contracts';
import { useId } from 'react';
import { type ResponsiveColumn, ResponsiveTable } from '../../../components/responsive-table';
import { type fetchExtractionJob, useExtractionJobDetail } from '../api/get-extraction-job';
import { SummaryLines } from './summary-lines';

type JobDetail = Awaited<ReturnType<typeof fetchExtractionJob>>;

export interface JobDetailsDialogProps {
  studyId: string;
  /** The job shown; null keeps the dialog closed. */
  jobId: string | null;
  onClose: () => void;
}

/** One job's tasks and the run's files, refreshed while something is still to come. */
export function JobDetailsDialog({ studyId, jobId, onClose }: JobDetailsDialogProps) {
  const detail = useExtractionJobDetail(studyId, jobId);
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  const titleId = useId();
  return (
    <Dialog
      open={jobId !== null}
      onClose={onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="md"
      fullScreen={phone}
    >
      <DialogTitle id={titleId}>{T.detailsTitle}</DialogTitle>
      {/* Text only, and taller than the screen: the keyboard scrolls it once it has the focus. */}
      <DialogContent tabIndex={0} role="region" aria-labelledby={titleId}>
        {!detail.data ? <Typography>{T.loading}</Typography> : <JobDetail data={detail.data} />}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{T.close}</Button>
      </DialogActions>
    </Dialog>
  );
}

function JobDetail({ data }: { data: JobDetail }) {
  const { job } = data;
  return (
    <>
      <SummaryLines
        lines={[
          [T.nameLabel, job.extractionName],
          [T.summaryParticipants, job.participantName || job.participantId],
          [T.detailStatus, job.status],
          [T.detailCalls, T.callsProgress(job.callsDone, job.callsPlanned)],
        ]}
      />
      {job.error && (
        <Alert severity="error" sx={{ my: 1 }}>
          {job.error}
        </Alert>
      )}
      <TaskTable tasks={data.tasks} />
      <Typography variant="subtitle2" component="h3" sx={{ mt: 2 }}>
        {T.runFiles}
      </Typography>
      <RunFiles files={data.runFiles} />
    </>
  );
}

type Task = JobDetail['tasks'][number];

const TASK_COLUMNS: readonly ResponsiveColumn<Task>[] = [
  { label: T.detailType, card: 'title', render: (task) => task.dataType },
  {
    label: T.detailDates,
    render: (task) =>
      task.windowStart === task.windowEnd
        ? task.windowStart
        : `${task.windowStart} – ${task.windowEnd}`,
    cellSx: { whiteSpace: 'nowrap' },
  },
  { label: T.detailStatus, render: (task) => task.status },
  { label: T.detailCalls, align: 'right', render: (task) => task.callsDone },
  { label: T.detailRows, align: 'right', render: (task) => task.rows },
  { label: T.detailFiles, align: 'right', render: (task) => task.files.length },
  { label: T.detailNote, render: (task) => task.skipReason ?? task.error ?? '' },
];

/** The job's tasks: a table in the dialog, a card per task on a phone's full-screen dialog. */
function TaskTable({ tasks }: { tasks: JobDetail['tasks'] }) {
  return (
    <Box sx={{ mt: 2 }}>
      <ResponsiveTable
        label={T.detailTasks}
        columns={TASK_COLUMNS}
        rows={tasks}
        rowKey={(task) => `${task.dataType}-${task.windowStart}`}
        dense
      />
    </Box>
  );
}

function RunFiles({ files }: { files: string[] }) {
  if (files.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        {T.runFilesPending}
      </Typography>
    );
  }
  return (
    <List dense disablePadding>
      {files.map((file) => (
        <ListItem key={file} disableGutters>
          <ListItemText primary={file.slice(file.lastIndexOf('/') + 1)} secondary={file} />
        </ListItem>
      ))}
    </List>
  );
}
