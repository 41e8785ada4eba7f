import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  DATA_TYPES,
  EXPORT_FORMATS,
  EXPORT_PANEL_TEXTS as T,
  type WearableAuthorizationRow,
} from '@research/contracts';
import { useId } from 'react';
import { DataTypePicker } from '../../../components/data-type-picker';
import { ParticipantPicker } from '../../../components/participant-picker';
import type { ExportForm as ExportFormState } from '../use-export-form';

// Exports read the stored dataset: a participant who disconnected still has their data.
const anyParticipant = () => true;

export interface ExportFormProps {
  form: ExportFormState;
  rows: WearableAuthorizationRow[];
  loadingRows: boolean;
}

/** The new export: who, what, which days, which files; then "Start export". */
export function ExportForm({ form, rows, loadingRows }: ExportFormProps) {
  const headingId = useId();
  const { problems } = form;
  return (
    <Box
      component="form"
      noValidate
      aria-labelledby={headingId}
      onSubmit={(event) => {
        event.preventDefault();
        void form.submit();
      }}
    >
      <Typography id={headingId} variant="subtitle1" component="h3" gutterBottom>
        {T.formTitle}
      </Typography>
      <Stack spacing={2.5}>
        <ParticipantPicker
          rows={rows}
          loading={loadingRows}
          selected={form.selected}
          onChange={form.setSelected}
          selectable={anyParticipant}
          helperText={T.participantsHelp}
          selectAllLabel={T.selectAllParticipants}
          error={problems.participants ?? null}
          inputRef={form.refs.participants}
        />

        <Box>
          <DataTypePicker
            value={form.dataTypes}
            onChange={form.setDataTypes}
            helperText={T.dataTypesHelp}
            error={problems.dataTypes ?? null}
            inputRef={form.refs.dataTypes}
          />
          <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
            <Button size="small" onClick={() => form.setDataTypes([...DATA_TYPES])}>
              {T.allDataTypes}
            </Button>
            <Button size="small" onClick={() => form.setDataTypes([])}>
              {T.clearDataTypes}
            </Button>
          </Stack>
        </Box>

        <DayRange form={form} />

        <FormControl component="fieldset" error={problems.formats !== undefined}>
          <FormLabel component="legend">{T.formatsLegend}</FormLabel>
          <FormGroup row>
            {EXPORT_FORMATS.map((format, index) => (
              <FormControlLabel
                key={format}
                label={T.formatLabels[format]}
                control={
                  <Checkbox
                    checked={form.formats.includes(format)}
                    onChange={(e) => form.toggleFormat(format, e.target.checked)}
                    inputRef={index === 0 ? form.refs.formats : undefined}
                  />
                }
              />
            ))}
          </FormGroup>
          {problems.formats && <FormHelperText>{problems.formats}</FormHelperText>}
        </FormControl>

        <FormControl component="fieldset">
          <FormLabel component="legend">{T.optionsLegend}</FormLabel>
          <Option
            label={T.minuteGrid}
            help={T.minuteGridHelp}
            checked={form.minuteGrid}
            onChange={form.setMinuteGrid}
          />
          <Option
            label={T.includeRaw}
            help={T.includeRawHelp}
            checked={form.includeRaw}
            onChange={form.setIncludeRaw}
          />
        </FormControl>

        <TextField
          label={T.name}
          helperText={T.nameHelp}
          value={form.name}
          onChange={(e) => form.setName(e.target.value)}
          slotProps={{ htmlInput: { maxLength: 200 } }}
          size="small"
        />

        {form.serverProblem && (
          <Alert severity="error" role="alert">
            {form.serverProblem.message}
            {form.serverProblem.fields.length > 0 && (
              <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
                {form.serverProblem.fields.map((f) => (
                  <li key={`${f.field}:${f.message}`}>{f.message}</li>
                ))}
              </Box>
            )}
          </Alert>
        )}

        <Stack
          direction="row"
          spacing={2}
          useFlexGap
          alignItems="center"
          sx={{ flexWrap: 'wrap', rowGap: 1 }}
        >
          <Button
            type="submit"
            variant="contained"
            disabled={form.pending}
            startIcon={form.pending ? <CircularProgress size={16} color="inherit" /> : undefined}
          >
            {form.pending ? T.starting : T.start}
          </Button>
          <Typography role="status" variant="body2" color="success.main">
            {form.startedName ? T.started(form.startedName) : ''}
          </Typography>
        </Stack>
      </Stack>
    </Box>
  );
}

/** Start and end day; a missing or wrong range is said under the end field. */
function DayRange({ form }: { form: ExportFormState }) {
  const helpId = useId();
  const problem = form.problems.dates;
  return (
    <FormControl component="fieldset" error={problem !== undefined} aria-describedby={helpId}>
      <FormLabel component="legend">{T.rangeLegend}</FormLabel>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mt: 1 }}>
        <TextField
          type="date"
          label={T.startDate}
          value={form.startDate}
          onChange={(e) => form.setStartDate(e.target.value)}
          inputRef={form.refs.dates}
          error={problem !== undefined && !form.startDate}
          slotProps={{ inputLabel: { shrink: true } }}
          size="small"
        />
        <TextField
          type="date"
          label={T.endDate}
          value={form.endDate}
          onChange={(e) => form.setEndDate(e.target.value)}
          error={problem !== undefined && (form.startDate !== '' || !form.endDate)}
          helperText={problem}
          slotProps={{
            inputLabel: { shrink: true },
            htmlInput: { min: form.startDate || undefined },
          }}
          size="small"
        />
      </Stack>
      <FormHelperText id={helpId} error={false}>
        {T.rangeHelp}
      </FormHelperText>
    </FormControl>
  );
}

function Option({
  label,
  help,
  checked,
  onChange,
}: {
  label: string;
  help: string;
  checked: boolean;
  onChange: (on: boolean) => void;
}) {
  const helpId = useId();
  return (
    <Box>
      {/* A label of two lines (on a phone) starts level with the box, not centred on it. */}
      <FormControlLabel
        label={label}
        sx={{ alignItems: 'flex-start', '& .MuiFormControlLabel-label': { pt: '9px' } }}
        control={
          <Checkbox
            checked={checked}
            onChange={(e) => onChange(e.target.checked)}
            slotProps={{ input: { 'aria-describedby': helpId } }}
          />
        }
      />
      <FormHelperText id={helpId} sx={{ mt: -0.5, ml: 4 }}>
        {help}
      </FormHelperText>
    </Box>
  );
}
