import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import { useTheme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { EXTRACTION_PANEL_TEXTS as T } from '@research/contracts';
import { useId } from 'react';
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

function TaskTable({ tasks }: { tasks: JobDetail['tasks'] }) {
  return (
    // Wider than a phone: the container scrolls, so it takes the focus (keyboard scrolling) and
    // a name.
    <TableContainer sx={{ mt: 2 }} role="region" tabIndex={0} aria-label={T.detailTasks}>
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell>{T.detailType}</TableCell>
            <TableCell>{T.detailDates}</TableCell>
            <TableCell>{T.detailStatus}</TableCell>
            <TableCell align="right">{T.detailCalls}</TableCell>
            <TableCell align="right">{T.detailRows}</TableCell>
            <TableCell align="right">{T.detailFiles}</TableCell>
            <TableCell>{T.detailNote}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {tasks.map((task) => (
            <TableRow key={`${task.dataType}-${task.windowStart}`}>
              <TableCell>{task.dataType}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                {task.windowStart === task.windowEnd
                  ? task.windowStart
                  : `${task.windowStart} – ${task.windowEnd}`}
              </TableCell>
              <TableCell>{task.status}</TableCell>
              <TableCell align="right">{task.callsDone}</TableCell>
              <TableCell align="right">{task.rows}</TableCell>
              <TableCell align="right">{task.files.length}</TableCell>
              <TableCell>{task.skipReason ?? task.error ?? ''}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
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
