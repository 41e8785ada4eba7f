import Visibility from '@mui/icons-material/Visibility';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { EXTRACTION_PANEL_TEXTS as T } from '@research/contracts';
import { useState } from 'react';
import type { Notify } from '../../components/notification-modal';
import { useParticipantAuthorizations } from '../../lib/participant-authorizations';
import { useExtractionJobs } from './api/get-extraction-jobs';
import { NameDialog, PreviewDialog, SelectionSummary } from './components/extraction-dialogs';
import { DataTypePicker, DateFields, ParticipantPicker } from './components/extraction-selection';
import { JobDetailsDialog } from './components/job-details-dialog';
import { JobList } from './components/job-list';
import { useExtractionSelection, useStartExtractionDialog } from './use-extraction-form';

export interface ExtractionPanelProps {
  studyId: string;
  signedIn: boolean;
  notify: Notify;
}

/** Tab 4's extraction panel: selection, summary, start, preview, the live job list and details. */
export function ExtractionPanel({ studyId, signedIn, notify }: ExtractionPanelProps) {
  const authorizations = useParticipantAuthorizations(studyId);
  const jobs = useExtractionJobs(studyId);
  const selection = useExtractionSelection(studyId);
  const dialog = useStartExtractionDialog(studyId, selection, signedIn, notify);
  const [previewing, setPreviewing] = useState(false);
  const [detailJob, setDetailJob] = useState<string | null>(null);

  const running =
    dialog.pending ||
    (jobs.data ?? []).some(
      (j) => j.status === 'pending' || j.status === 'running' || j.status === 'stalled',
    );

  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="h6" component="h2">
          {T.title}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {T.intro}
        </Typography>

        <Stack spacing={2}>
          <DateFields selection={selection} />
          <ParticipantPicker
            rows={authorizations.data ?? []}
            loading={authorizations.isLoading}
            selection={selection}
          />
          <DataTypePicker selection={selection} />
          <SelectionSummary selection={selection} />

          <Stack direction="row" spacing={1} alignItems="center">
            <Button
              variant="contained"
              onClick={dialog.openDialog}
              disabled={!selection.startable || running}
            >
              {dialog.pending ? T.starting : T.startExtraction}
            </Button>
            <Tooltip title={T.preview}>
              <IconButton aria-label={T.preview} onClick={() => setPreviewing(true)}>
                <Visibility />
              </IconButton>
            </Tooltip>
          </Stack>

          <JobList jobs={jobs.data ?? []} loading={jobs.isLoading} onDetail={setDetailJob} />
        </Stack>
      </CardContent>

      <NameDialog selection={selection} dialog={dialog} />
      <PreviewDialog selection={selection} open={previewing} onClose={() => setPreviewing(false)} />
      <JobDetailsDialog studyId={studyId} jobId={detailJob} onClose={() => setDetailJob(null)} />
    </Card>
  );
}
