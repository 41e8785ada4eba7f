import Add from '@mui/icons-material/Add';
import ClearAll from '@mui/icons-material/ClearAll';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import UploadFile from '@mui/icons-material/UploadFile';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  CSV_PREVIEW_ROWS,
  formatPhoneInput,
  INVITE_DIALOG_TEXTS,
  INVITE_MESSAGES,
  isValidEmail,
  isValidPhone,
} from '@research/contracts';
import { FilePickerButton } from '../../../components/file-picker-button';

export interface InviteRow {
  email: string;
  /** As typed and shown: '(555) 123-4567', or '+44 7700 900123'. */
  phone: string;
  /** Came from the last CSV file: the next file replaces it (edited or not). */
  fromFile?: true;
}

export const EMPTY_ROW: InviteRow = { email: '', phone: '' };

/** Rows with something typed in; wholly blank rows are ignored. */
export const filledRows = (rows: readonly InviteRow[]): InviteRow[] =>
  rows.filter((row) => row.email.trim() !== '' || row.phone.trim() !== '');

/** The rows the researcher typed: what is left when a new file replaces the last one. */
export const typedRows = (rows: readonly InviteRow[]): InviteRow[] => {
  const kept = rows.filter((row) => !row.fromFile);
  return kept.length > 0 ? kept : [EMPTY_ROW];
};

/** Continue stays disabled until some participant has an e-mail. */
export const hasAnyEmail = (rows: readonly InviteRow[]): boolean =>
  rows.some((row) => row.email.trim() !== '');

const phoneInvalid = (phone: string) => phone.trim() !== '' && !isValidPhone(phone);

/** The first 'Invite participants' rule the rows break, or null. */
export function inviteProblem(rows: readonly InviteRow[], studyName: string): string | null {
  if (!studyName.trim()) return INVITE_MESSAGES.studyNameRequired;
  const filled = filledRows(rows);
  if (filled.length === 0) return INVITE_MESSAGES.addAtLeastOne;
  if (filled.some((row) => row.email.trim() === '')) return INVITE_MESSAGES.enterEmails;
  if (filled.some((row) => !isValidEmail(row.email.trim()))) return INVITE_MESSAGES.validEmails;
  if (filled.some((row) => phoneInvalid(row.phone))) return INVITE_MESSAGES.validPhones;
  return null;
}

export interface CsvPreview {
  fileName: string;
  rows: InviteRow[];
}

export interface InviteRowsProps {
  rows: InviteRow[];
  onChange: (rows: InviteRow[]) => void;
  /** The rule broken at the last Continue, shown once, inline, with the offending fields red. */
  problem: string | null;
  csvBusy: boolean;
  /** The CSV problem (one of the CSV messages, or the server's per-row list). */
  csvError: string | null;
  /** Rows the server left out as duplicates. */
  csvNotice: string | null;
  csvPreview: CsvPreview | null;
  onCsvFile: (file: File) => void;
  /** Empties the rows, the file's preview and the CSV messages. */
  onClearAll: () => void;
  disabled?: boolean;
}

/** Invite mode: one row per participant (email, optional phone) and the CSV upload. */
export function InviteRows({
  rows,
  onChange,
  problem,
  csvBusy,
  csvError,
  csvNotice,
  csvPreview,
  onCsvFile,
  onClearAll,
  disabled = false,
}: InviteRowsProps) {
  const setRow = (index: number, row: InviteRow) =>
    onChange(rows.map((current, i) => (i === index ? row : current)));
  const removeRow = (index: number) => {
    const next = rows.filter((_, i) => i !== index);
    onChange(next.length > 0 ? next : [EMPTY_ROW]);
  };
  const emailProblem =
    problem === INVITE_MESSAGES.validEmails || problem === INVITE_MESSAGES.enterEmails;
  const phoneProblem = problem === INVITE_MESSAGES.validPhones;
  const hiddenCount = csvPreview ? csvPreview.rows.length - CSV_PREVIEW_ROWS : 0;
  const anythingToClear =
    filledRows(rows).length > 0 ||
    rows.length > 1 ||
    csvPreview !== null ||
    csvError !== null ||
    csvNotice !== null;

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      {problem && (
        <Alert severity="warning" role="alert">
          {problem}
        </Alert>
      )}
      {rows.map((row, index) => {
        const n = index + 1;
        const emailBad =
          emailProblem &&
          (row.email.trim() === '' ? row.phone.trim() !== '' : !isValidEmail(row.email.trim()));
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity besides position
          <Box key={index} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
            <Box
              sx={{
                flex: 1,
                display: 'grid',
                gridTemplateColumns: { xs: '1fr', sm: '3fr 2fr' },
                gap: 1,
              }}
              role="group"
              aria-label={INVITE_DIALOG_TEXTS.participantRow(n)}
            >
              <TextField
                size="small"
                type="email"
                label={`${INVITE_DIALOG_TEXTS.email} ${n}`}
                value={row.email}
                onChange={(event) => setRow(index, { ...row, email: event.target.value })}
                error={emailBad}
                disabled={disabled}
                fullWidth
              />
              <TextField
                size="small"
                label={`${INVITE_DIALOG_TEXTS.phone} ${n}`}
                placeholder={INVITE_DIALOG_TEXTS.phonePlaceholder}
                value={row.phone}
                onChange={(event) =>
                  setRow(index, { ...row, phone: formatPhoneInput(event.target.value) })
                }
                error={phoneProblem && phoneInvalid(row.phone)}
                disabled={disabled}
                slotProps={{ htmlInput: { inputMode: 'tel' } }}
                fullWidth
              />
            </Box>
            <IconButton
              aria-label={INVITE_DIALOG_TEXTS.removeRow(n)}
              onClick={() => removeRow(index)}
              disabled={disabled || (rows.length === 1 && row.email === '' && row.phone === '')}
              sx={{ mt: 0.25 }}
            >
              <DeleteOutline />
            </IconButton>
          </Box>
        );
      })}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        <Button
          startIcon={<Add />}
          onClick={() => onChange([...rows, EMPTY_ROW])}
          disabled={disabled}
        >
          {INVITE_DIALOG_TEXTS.addParticipant}
        </Button>
        <FilePickerButton
          variant="outlined"
          startIcon={csvBusy ? <CircularProgress size={16} /> : <UploadFile />}
          disabled={disabled || csvBusy}
          accept=".csv,text/csv"
          onFiles={([file]) => file && onCsvFile(file)}
          input={{ 'data-testid': 'roster-file-input' }}
        >
          {csvBusy ? INVITE_DIALOG_TEXTS.uploading : INVITE_DIALOG_TEXTS.uploadCsv}
        </FilePickerButton>
        <Button
          color="inherit"
          startIcon={<ClearAll />}
          onClick={onClearAll}
          disabled={disabled || csvBusy || !anythingToClear}
          sx={{ ml: { sm: 'auto' } }}
        >
          {INVITE_DIALOG_TEXTS.clearAll}
        </Button>
      </Box>
      <Typography variant="caption" color="text.secondary">
        {INVITE_DIALOG_TEXTS.csvHelp}
      </Typography>
      {csvError && (
        <Alert severity="error" role="alert" sx={{ whiteSpace: 'pre-line' }}>
          {csvError}
        </Alert>
      )}
      {csvNotice && (
        <Alert severity="info" sx={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
          {csvNotice}
        </Alert>
      )}
      {csvPreview && (
        <Box
          component="section"
          aria-label={INVITE_DIALOG_TEXTS.csvPreviewTitle(csvPreview.rows.length)}
        >
          <Typography variant="subtitle2" component="h3" sx={{ mb: 0.5 }}>
            {INVITE_DIALOG_TEXTS.csvPreviewTitle(csvPreview.rows.length)} ({csvPreview.fileName})
          </Typography>
          <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 2 }}>
            <Table
              size="small"
              aria-label={INVITE_DIALOG_TEXTS.csvPreviewTitle(csvPreview.rows.length)}
            >
              <TableHead>
                <TableRow>
                  <TableCell sx={{ fontWeight: 700 }}>{INVITE_DIALOG_TEXTS.email}</TableCell>
                  <TableCell sx={{ fontWeight: 700 }}>{INVITE_DIALOG_TEXTS.phoneColumn}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {csvPreview.rows.slice(0, CSV_PREVIEW_ROWS).map((row, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: preview rows are positional
                  <TableRow key={index}>
                    <TableCell sx={{ overflowWrap: 'anywhere' }}>{row.email}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{row.phone}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          {hiddenCount > 0 && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
              {INVITE_DIALOG_TEXTS.csvMoreRows(hiddenCount)}
            </Typography>
          )}
        </Box>
      )}
    </Box>
  );
}
