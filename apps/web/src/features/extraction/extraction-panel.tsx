import Visibility from '@mui/icons-material/Visibility';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import { useTheme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import {
  authenticationRequiredTo,
  DATA_TYPE_NOTES,
  DATA_TYPE_SCOPES,
  DATA_TYPES,
  type DataType,
  DEFAULT_DATA_TYPE,
  defaultExtractionName,
  EXTRACTION_MESSAGES,
  type ExtractionJob,
  estimateExtraction,
  NOTIFICATION_TITLES,
  previewList,
  EXTRACTION_PANEL_TEXTS as T,
  truncateJobName,
  UNKNOWN_ERROR,
  type WearableAuthorizationRow,
} from '@research/contracts';
import { useMemo, useState } from 'react';
import type { Notify } from '../../components/notification-modal';
import { useExtractionJobDetail } from './api/get-extraction-job';
import { useExtractionJobs } from './api/get-extraction-jobs';
import { useParticipantAuthorizations } from './api/get-participant-authorizations';
import { useStartExtraction } from './api/start-extraction';

export interface ExtractionPanelProps {
  studyId: string;
  signedIn: boolean;
  notify: Notify;
}

type Mode = 'single' | 'range';

const nameOf = (row: WearableAuthorizationRow) => row.name || row.email || row.participantId;

/** The types a participant's grant cannot give (a scope of the type is missing). */
function missingTypes(row: WearableAuthorizationRow): DataType[] {
  return DATA_TYPES.filter((type) =>
    DATA_TYPE_SCOPES[type].some((scope) => !row.grantedScopes.includes(scope)),
  );
}

const formatMinutes = (value: number) =>
  value < 10 ? value.toFixed(1).replace(/\.0$/, '') : String(Math.round(value));

/** Tab 4's extraction panel: selection, summary, start, preview, the live job list and details. */
export function ExtractionPanel({ studyId, signedIn, notify }: ExtractionPanelProps) {
  const authorizations = useParticipantAuthorizations(studyId);
  const jobs = useExtractionJobs(studyId);
  const start = useStartExtraction(studyId);
  const [mode, setMode] = useState<Mode>('single');
  const [startDate, setStartDate] = useState('');
  const [endDate, setEndDate] = useState('');
  const [selected, setSelected] = useState<WearableAuthorizationRow[]>([]);
  const [dataTypes, setDataTypes] = useState<DataType[]>([DEFAULT_DATA_TYPE]);
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const [nameTouched, setNameTouched] = useState(false);
  const [previewing, setPreviewing] = useState(false);
  const [detailJob, setDetailJob] = useState<string | null>(null);

  const rows = authorizations.data ?? [];
  const selectable = useMemo(() => rows.filter((r) => r.authorizationStatus), [rows]);
  const running =
    start.isPending ||
    (jobs.data ?? []).some(
      (j) => j.status === 'pending' || j.status === 'running' || j.status === 'stalled',
    );
  const estimate = estimateExtraction({
    participants: selected.length,
    dataTypes: dataTypes.length,
    startDate: startDate,
    endDate: mode === 'range' ? endDate : null,
  });
  const dates =
    mode === 'single' ? startDate || '—' : startDate && endDate ? `${startDate} – ${endDate}` : '—';

  const validationError = (): string | null => {
    if (selected.length === 0) return EXTRACTION_MESSAGES.selectParticipant;
    if (dataTypes.length === 0) return EXTRACTION_MESSAGES.selectDataType;
    if (mode === 'single' && !startDate) return EXTRACTION_MESSAGES.selectDate;
    if (mode === 'range' && (!startDate || !endDate)) return EXTRACTION_MESSAGES.selectBothDates;
    return null;
  };

  const openNameDialog = () => {
    if (!signedIn) {
      notify('error', NOTIFICATION_TITLES.authenticationError, authenticationRequiredTo());
      return;
    }
    const problem = validationError();
    if (problem) {
      notify('error', NOTIFICATION_TITLES.validationError, problem);
      return;
    }
    setName(defaultExtractionName(new Date(), selected.length));
    setNameTouched(false);
    setNaming(true);
  };

  const submit = async () => {
    setNameTouched(true);
    if (!name.trim()) return;
    try {
      // The new jobs appear in the list below, with live progress: no extra message needed.
      await start.mutateAsync({
        participantIds: selected.map((s) => s.participantId),
        dataTypes,
        extractionName: name.trim(),
        dateRange: {
          startDate,
          endDate: mode === 'range' ? endDate : startDate,
          mode,
        },
      });
      setNaming(false);
    } catch (error) {
      const reason = error instanceof Error && error.message ? error.message : UNKNOWN_ERROR;
      notify('error', T.startFailedTitle, EXTRACTION_MESSAGES.startFailed(reason));
    }
  };

  const participantPreview = previewList(selected.map(nameOf));
  const typePreview = previewList(dataTypes);

  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="h6" component="h3">
          {T.title}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {T.intro}
        </Typography>

        <Stack spacing={2}>
          <ToggleButtonGroup
            exclusive
            size="small"
            color="primary"
            value={mode}
            aria-label={T.dateMode}
            onChange={(_e, value: Mode | null) => value && setMode(value)}
          >
            <ToggleButton value="single">{T.singleDate}</ToggleButton>
            <ToggleButton value="range">{T.dateRange}</ToggleButton>
          </ToggleButtonGroup>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              type="date"
              label={mode === 'single' ? T.date : T.startDate}
              value={startDate}
              onChange={(e) => setStartDate(e.target.value)}
              slotProps={{ inputLabel: { shrink: true } }}
              size="small"
            />
            {mode === 'range' && (
              <TextField
                type="date"
                label={T.endDate}
                value={endDate}
                onChange={(e) => setEndDate(e.target.value)}
                slotProps={{
                  inputLabel: { shrink: true },
                  htmlInput: { min: startDate || undefined },
                }}
                size="small"
              />
            )}
          </Stack>

          <Box>
            <Autocomplete
              multiple
              disableCloseOnSelect
              options={rows}
              value={selected}
              loading={authorizations.isLoading}
              getOptionDisabled={(row) => !row.authorizationStatus}
              getOptionLabel={nameOf}
              isOptionEqualToValue={(a, b) => a.participantId === b.participantId}
              onChange={(_e, value) => setSelected(value)}
              renderOption={(props, row, { selected: checked }) => {
                const { key, ...rest } = props;
                const missing = missingTypes(row);
                return (
                  <li key={key} {...rest}>
                    <Checkbox size="small" checked={checked} sx={{ mr: 1 }} />
                    <ListItemText
                      primary={nameOf(row)}
                      secondary={
                        !row.authorizationStatus
                          ? T.notAuthorized
                          : missing.length > 0
                            ? T.cannotGive(missing.join(', '))
                            : row.participantId
                      }
                    />
                  </li>
                );
              }}
              renderInput={(params) => (
                <TextField {...params} label={T.participants} helperText={T.participantsHelp} />
              )}
            />
            <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
              <Button size="small" onClick={() => setSelected(selectable)}>
                {T.selectAll}
              </Button>
              <Button size="small" onClick={() => setSelected([])}>
                {T.clear}
              </Button>
            </Stack>
          </Box>

          <Autocomplete
            multiple
            disableCloseOnSelect
            options={[...DATA_TYPES]}
            value={dataTypes}
            onChange={(_e, value) => setDataTypes(value)}
            renderOption={(props, type, { selected: checked }) => {
              const { key, ...rest } = props;
              return (
                <li key={key} {...rest}>
                  <Checkbox size="small" checked={checked} sx={{ mr: 1 }} />
                  <ListItemText primary={type} secondary={DATA_TYPE_NOTES[type] ?? null} />
                </li>
              );
            }}
            renderInput={(params) => <TextField {...params} label={T.dataTypes} />}
          />

          <Card variant="outlined" sx={{ bgcolor: 'action.hover' }}>
            <CardContent>
              <Typography variant="subtitle1" component="h4" gutterBottom>
                {T.summaryTitle}
              </Typography>
              <SummaryLines
                lines={[
                  [T.summaryParticipants, String(selected.length)],
                  [T.summaryDataTypes, String(dataTypes.length)],
                  [T.summaryDates, dates],
                  [T.summaryCalls, String(estimate.calls)],
                  [
                    T.summaryTime,
                    T.minutes(
                      formatMinutes(estimate.minMinutes),
                      formatMinutes(estimate.maxMinutes),
                    ),
                  ],
                ]}
              />
            </CardContent>
          </Card>

          <Stack direction="row" spacing={1} alignItems="center">
            <Button
              variant="contained"
              onClick={openNameDialog}
              disabled={estimate.calls === 0 || running}
            >
              {start.isPending ? T.starting : T.startExtraction}
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

      <Dialog open={naming} onClose={() => setNaming(false)} fullWidth maxWidth="sm">
        <DialogTitle>{T.nameDialogTitle}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            margin="dense"
            label={T.nameLabel}
            value={name}
            onChange={(e) => setName(e.target.value)}
            onBlur={() => setNameTouched(true)}
            error={nameTouched && !name.trim()}
            helperText={nameTouched && !name.trim() ? T.nameRequired : ' '}
          />
          <SummaryLines
            lines={[
              [T.summaryParticipants, String(selected.length)],
              [T.summaryDataTypes, dataTypes.join(', ')],
              [T.summaryDates, dates],
              [T.summaryCalls, String(estimate.calls)],
            ]}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setNaming(false)}>{T.cancel}</Button>
          <Button variant="contained" onClick={submit} disabled={!name.trim() || start.isPending}>
            {T.startExtraction}
          </Button>
        </DialogActions>
      </Dialog>

      <Dialog open={previewing} onClose={() => setPreviewing(false)} fullWidth maxWidth="sm">
        <DialogTitle>{T.previewTitle}</DialogTitle>
        <DialogContent>
          <PreviewBlock title={T.summaryParticipants} preview={participantPreview} />
          <PreviewBlock title={T.summaryDataTypes} preview={typePreview} />
          <SummaryLines
            lines={[
              [T.summaryDates, dates],
              [T.summaryCalls, String(estimate.calls)],
            ]}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setPreviewing(false)}>{T.close}</Button>
        </DialogActions>
      </Dialog>

      <DetailsDialog studyId={studyId} jobId={detailJob} onClose={() => setDetailJob(null)} />
    </Card>
  );
}

function SummaryLines({ lines }: { lines: [string, string][] }) {
  return (
    <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', gap: 0.5 }}>
      {lines.map(([label, value]) => (
        <Box key={label} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2" color="text.secondary" sx={{ pr: 2 }}>
            {label}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

function PreviewBlock({
  title,
  preview,
}: {
  title: string;
  preview: { items: string[]; moreLabel: string | null };
}) {
  return (
    <Box sx={{ mb: 2 }}>
      <Typography variant="subtitle2">{title}</Typography>
      <List dense disablePadding>
        {preview.items.map((item) => (
          <ListItem key={item} disableGutters>
            <ListItemText primary={item} />
          </ListItem>
        ))}
        {preview.moreLabel && (
          <ListItem disableGutters>
            <ListItemText primary={preview.moreLabel} />
          </ListItem>
        )}
      </List>
    </Box>
  );
}

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

function JobList({
  jobs,
  loading,
  onDetail,
}: {
  jobs: ExtractionJob[];
  loading: boolean;
  onDetail: (id: string) => void;
}) {
  return (
    <Box>
      <Typography variant="subtitle1" component="h4" gutterBottom>
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
            <Box component="li" key={job.id} data-testid="extraction-job">
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
              {job.status === 'stalled' && job.error && (
                <Typography variant="caption" color="warning.main">
                  {job.error}
                </Typography>
              )}
            </Box>
          ))}
        </Stack>
      )}
    </Box>
  );
}

function DetailsDialog({
  studyId,
  jobId,
  onClose,
}: {
  studyId: string;
  jobId: string | null;
  onClose: () => void;
}) {
  const detail = useExtractionJobDetail(studyId, jobId);
  const data = detail.data;
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  return (
    <Dialog open={jobId !== null} onClose={onClose} fullWidth maxWidth="md" fullScreen={phone}>
      <DialogTitle>{T.detailsTitle}</DialogTitle>
      <DialogContent>
        {!data ? (
          <Typography>{T.loading}</Typography>
        ) : (
          <>
            <SummaryLines
              lines={[
                [T.nameLabel, data.job.extractionName],
                [T.summaryParticipants, data.job.participantName || data.job.participantId],
                [T.detailStatus, data.job.status],
                [T.detailCalls, T.callsProgress(data.job.callsDone, data.job.callsPlanned)],
              ]}
            />
            {data.job.error && (
              <Alert severity="error" sx={{ my: 1 }}>
                {data.job.error}
              </Alert>
            )}
            <TableContainer sx={{ mt: 2 }}>
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
                  {data.tasks.map((task) => (
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
            <Typography variant="subtitle2" sx={{ mt: 2 }}>
              {T.runFiles}
            </Typography>
            {data.runFiles.length === 0 ? (
              <Typography variant="body2" color="text.secondary">
                {T.runFilesPending}
              </Typography>
            ) : (
              <List dense disablePadding>
                {data.runFiles.map((file) => (
                  <ListItem key={file} disableGutters>
                    <ListItemText
                      primary={file.slice(file.lastIndexOf('/') + 1)}
                      secondary={file}
                    />
                  </ListItem>
                ))}
              </List>
            )}
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{T.close}</Button>
      </DialogActions>
    </Dialog>
  );
}
