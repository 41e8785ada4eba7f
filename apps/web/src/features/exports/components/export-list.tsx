import Download from '@mui/icons-material/Download';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Collapse from '@mui/material/Collapse';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  EXPORT_FORMATS,
  EXPORT_SERVER_MESSAGES,
  type ExportFile,
  type ExportSummary,
  formatSizeHuman,
  EXPORT_PANEL_TEXTS as T,
} from '@research/contracts';
import { Fragment, useEffect, useId, useRef, useState } from 'react';
import { ResponsiveTable } from '../../../components/responsive-table';
import { useDownloadExport } from '../api/download-export';
import { useExportFiles } from '../api/get-export';

const statusColor = (status: ExportSummary['status']) =>
  status === 'completed'
    ? 'success'
    : status === 'failed'
      ? 'error'
      : status === 'running'
        ? 'info'
        : 'default';

const WHEN = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * The line under an export's name: who, what and which days, in which files. Each part keeps
 * together (a day is never cut at its hyphens); the line wraps between parts, and inside the list
 * of types only after a comma.
 */
function summaryParts(e: ExportSummary): { text: string; wraps?: boolean }[] {
  return [
    { text: T.participantCount(e.participantCount) },
    { text: e.dataTypes.join(', '), wraps: true },
    { text: T.dayRange(e.dateRange.startDate, e.dateRange.endDate) },
    // In the form's order (the server keeps them sorted by name).
    {
      text: EXPORT_FORMATS.filter((f) => e.formats.includes(f))
        .map((f) => T.formatLabels[f])
        .join(', '),
    },
    ...(e.minuteGrid ? [{ text: T.summaryMinuteGrid }] : []),
    ...(e.includeRaw ? [{ text: T.summaryRaw }] : []),
  ];
}

function Summary({ item }: { item: ExportSummary }) {
  const parts = summaryParts(item);
  return (
    <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
      {parts.map((part, index) => (
        <Fragment key={part.text}>
          <Box component="span" sx={part.wraps ? undefined : { whiteSpace: 'nowrap' }}>
            {part.text}
          </Box>
          {index < parts.length - 1 && ' · '}
        </Fragment>
      ))}
    </Typography>
  );
}

/** A ZIP name a file system takes: the export's name, else its id. */
export function archiveFileName(e: Pick<ExportSummary, 'id' | 'name'>): string {
  const base = e.name
    .normalize('NFKD')
    .replace(/[^\w.-]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return `${base || `export-${e.id}`}.zip`;
}

export interface ExportListProps {
  studyId: string;
  exports: ExportSummary[];
  loading: boolean;
  error: string | null;
  /** The export just started: its heading takes the focus once it is in the list. */
  focusId: string | null;
  onFocused: () => void;
}

/** The study's exports, newest first, with live progress and, once completed, the ZIP. */
export function ExportList({
  studyId,
  exports,
  loading,
  error,
  focusId,
  onFocused,
}: ExportListProps) {
  const headingId = useId();
  return (
    <Box component="section" aria-labelledby={headingId}>
      <Typography id={headingId} variant="subtitle1" component="h3" gutterBottom>
        {T.listTitle}
      </Typography>
      {loading ? (
        <LinearProgress aria-label={T.listTitle} />
      ) : error ? (
        <Alert severity="error">{error}</Alert>
      ) : exports.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {T.noExports}
        </Typography>
      ) : (
        <Stack spacing={2} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {exports.map((e) => (
            <ExportItem
              key={e.id}
              studyId={studyId}
              item={e}
              focus={e.id === focusId}
              onFocused={onFocused}
            />
          ))}
        </Stack>
      )}
    </Box>
  );
}

function ExportItem({
  studyId,
  item,
  focus,
  onFocused,
}: {
  studyId: string;
  item: ExportSummary;
  focus: boolean;
  onFocused: () => void;
}) {
  const nameId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const download = useDownloadExport();
  const [showFiles, setShowFiles] = useState(false);
  const filesId = useId();
  const completed = item.status === 'completed';

  useEffect(() => {
    if (!focus) return;
    heading.current?.focus();
    onFocused();
  }, [focus, onFocused]);

  return (
    <Box
      component="li"
      data-testid="export-item"
      aria-labelledby={nameId}
      sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5, minWidth: 0 }}
    >
      <Stack
        direction="row"
        spacing={1}
        useFlexGap
        alignItems="center"
        sx={{ flexWrap: 'wrap', rowGap: 0.5 }}
      >
        <Typography
          id={nameId}
          ref={heading}
          tabIndex={-1}
          variant="body1"
          component="h4"
          sx={{ fontWeight: 500, flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}
        >
          {item.name}
        </Typography>
        <Chip size="small" color={statusColor(item.status)} label={T.statuses[item.status]} />
      </Stack>
      <Typography variant="body2" color="text.secondary">
        {T.startedBy(item.createdBy, WHEN.format(new Date(item.createdAt)))}
      </Typography>
      <Summary item={item} />

      {/* On a phone the count goes under the bar, which keeps the whole width. */}
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={{ xs: 0.5, sm: 1 }}
        alignItems={{ xs: 'stretch', sm: 'center' }}
        sx={{ mt: 1 }}
      >
        <LinearProgress
          variant="determinate"
          value={item.progress.percent}
          color={item.status === 'failed' ? 'error' : 'primary'}
          // Not a 0 basis: in the phone's column that would leave the bar no height at all.
          sx={{ flex: '1 1 auto' }}
          aria-label={T.progressLabel(item.name)}
        />
        <Typography variant="caption" color="text.secondary" sx={{ flexShrink: 0 }}>
          {T.partitions(item.progress.done, item.progress.total, item.progress.percent)}
        </Typography>
      </Stack>

      {item.missingPartitions > 0 && (
        <Alert severity="warning" sx={{ mt: 1 }}>
          {T.missingPartitions(item.missingPartitions)}
        </Alert>
      )}
      {item.status === 'failed' && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {item.error ?? EXPORT_SERVER_MESSAGES.failed}
        </Alert>
      )}

      {completed && (
        <>
          <Stack
            direction="row"
            spacing={1}
            useFlexGap
            alignItems="center"
            sx={{ mt: 1, flexWrap: 'wrap', rowGap: 1 }}
          >
            <Button
              variant="contained"
              size="small"
              aria-label={T.downloadOf(item.name)}
              disabled={download.isPending}
              startIcon={
                download.isPending ? <CircularProgress size={16} color="inherit" /> : <Download />
              }
              onClick={() =>
                download.mutate({
                  studyId,
                  exportId: item.id,
                  fileName: archiveFileName(item),
                })
              }
            >
              {download.isPending ? T.downloading : T.download}
            </Button>
            <Typography variant="caption" color="text.secondary">
              {T.unzippedSize(formatSizeHuman(item.bytes))}
            </Typography>
            <Button
              size="small"
              aria-expanded={showFiles}
              aria-controls={filesId}
              endIcon={showFiles ? <ExpandLess /> : <ExpandMore />}
              onClick={() => setShowFiles((open) => !open)}
            >
              {showFiles ? T.hideFiles : T.showFiles}
            </Button>
          </Stack>
          {download.isError && (
            <Alert severity="error" sx={{ mt: 1 }}>
              {`${T.downloadFailed}: ${download.error.message}`}
            </Alert>
          )}
          <Collapse in={showFiles} id={filesId} unmountOnExit>
            <Box sx={{ mt: 1 }}>
              <FileList studyId={studyId} item={item} />
            </Box>
          </Collapse>
        </>
      )}
    </Box>
  );
}

const FILE_COLUMNS = [
  {
    label: T.filePath,
    card: 'title' as const,
    render: (f: ExportFile) => f.path,
    cellSx: { fontFamily: 'monospace', overflowWrap: 'anywhere' },
  },
  {
    label: T.fileSize,
    align: 'right' as const,
    render: (f: ExportFile) => formatSizeHuman(f.bytes),
  },
  {
    label: T.fileRows,
    align: 'right' as const,
    render: (f: ExportFile) => (f.rows === null ? T.noRows : f.rows.toLocaleString('en-US')),
  },
  {
    label: T.fileSha,
    // The first 12 hex digits tell files apart; the whole hash is in the manifest.
    render: (f: ExportFile) => (
      <Box component="span" title={f.sha256} sx={{ fontFamily: 'monospace' }}>
        {f.sha256.slice(0, 12)}
      </Box>
    ),
  },
];

/** The completed export's files, read when the list is opened. */
function FileList({ studyId, item }: { studyId: string; item: ExportSummary }) {
  const files = useExportFiles(studyId, item.id, true);
  if (files.isPending) return <LinearProgress aria-label={T.loadingFiles} />;
  if (files.isError) return <Alert severity="error">{files.error.message}</Alert>;
  return (
    <ResponsiveTable
      label={T.filesOf(item.name)}
      columns={FILE_COLUMNS}
      rows={files.data.files}
      rowKey={(f) => f.path}
      dense
    />
  );
}
