import Autocomplete, { createFilterOptions } from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import {
  DATA_TYPE_NOTES,
  DATA_TYPE_SCOPES,
  DATA_TYPES,
  type DataType,
  EXTRACTION_PANEL_TEXTS as T,
  type WearableAuthorizationRow,
} from '@research/contracts';
import { useMemo } from 'react';
import type { DateMode, ExtractionSelection } from '../use-extraction-form';

export const participantNameOf = (row: WearableAuthorizationRow) =>
  row.name || row.email || row.participantId;

/** Name and e-mail: several participants may share a name ('Bea Desk' three times). */
export const participantLabelOf = (row: WearableAuthorizationRow) =>
  T.participantLabel(row.name, row.email, row.participantId);

/** The typed text is looked for in the name, the e-mail and the participant id. */
const filterParticipants = createFilterOptions<WearableAuthorizationRow>({
  stringify: (row) => `${row.name} ${row.email} ${row.participantId}`,
});

/** The types a participant's grant cannot give (a scope of the type is missing). */
function missingTypes(row: WearableAuthorizationRow): DataType[] {
  return DATA_TYPES.filter((type) =>
    DATA_TYPE_SCOPES[type].some((scope) => !row.grantedScopes.includes(scope)),
  );
}

/** A single date or a range, with the date fields the mode needs. */
export function DateFields({ selection }: { selection: ExtractionSelection }) {
  const { mode, startDate, endDate } = selection;
  return (
    <>
      <ToggleButtonGroup
        exclusive
        size="small"
        color="primary"
        value={mode}
        aria-label={T.dateMode}
        onChange={(_e, value: DateMode | null) => value && selection.setMode(value)}
      >
        <ToggleButton value="single">{T.singleDate}</ToggleButton>
        <ToggleButton value="range">{T.dateRange}</ToggleButton>
      </ToggleButtonGroup>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField
          type="date"
          label={mode === 'single' ? T.date : T.startDate}
          value={startDate}
          onChange={(e) => selection.setStartDate(e.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
          size="small"
        />
        {mode === 'range' && (
          <TextField
            type="date"
            label={T.endDate}
            value={endDate}
            onChange={(e) => selection.setEndDate(e.target.value)}
            slotProps={{
              inputLabel: { shrink: true },
              htmlInput: { min: startDate || undefined },
            }}
            error={selection.dateProblem !== null}
            helperText={selection.dateProblem ?? undefined}
            size="small"
          />
        )}
      </Stack>
    </>
  );
}

export interface ParticipantPickerProps {
  rows: WearableAuthorizationRow[];
  loading: boolean;
  selection: ExtractionSelection;
}

/** Participants to extract; those without an authorization are shown but cannot be picked. */
export function ParticipantPicker({ rows, loading, selection }: ParticipantPickerProps) {
  const selectable = useMemo(() => rows.filter((r) => r.authorizationStatus), [rows]);
  return (
    <Box>
      <Autocomplete
        multiple
        disableCloseOnSelect
        options={rows}
        value={selection.selected}
        loading={loading}
        getOptionDisabled={(row) => !row.authorizationStatus}
        getOptionLabel={participantLabelOf}
        filterOptions={filterParticipants}
        isOptionEqualToValue={(a, b) => a.participantId === b.participantId}
        onChange={(_e, value) => selection.setSelected(value)}
        renderOption={(props, row, { selected: checked }) => {
          const { key, ...rest } = props;
          return (
            <li key={key} {...rest}>
              <Checkbox size="small" checked={checked} sx={{ mr: 1 }} />
              <ListItemText
                primary={participantNameOf(row)}
                secondary={[row.name ? row.email : '', row.participantId, participantNote(row)]
                  .filter(Boolean)
                  .join(' · ')}
              />
            </li>
          );
        }}
        renderInput={(params) => (
          <TextField {...params} label={T.participants} helperText={T.participantsHelp} />
        )}
      />
      <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
        <Button
          size="small"
          onClick={() => selection.setSelected(selectable)}
          disabled={selectable.length === 0}
        >
          {T.selectAll(selectable.length)}
        </Button>
        <Button size="small" onClick={() => selection.setSelected([])}>
          {T.clear}
        </Button>
      </Stack>
    </Box>
  );
}

/** Why a participant cannot be picked, or what their grant cannot give; '' when nothing. */
function participantNote(row: WearableAuthorizationRow): string {
  if (!row.authorizationStatus) return T.notAuthorized;
  const missing = missingTypes(row);
  return missing.length > 0 ? T.cannotGive(missing.join(', ')) : '';
}

/** The data types to extract, each with its note. */
export function DataTypePicker({ selection }: { selection: ExtractionSelection }) {
  return (
    <Autocomplete
      multiple
      disableCloseOnSelect
      options={[...DATA_TYPES]}
      value={selection.dataTypes}
      onChange={(_e, value) => selection.setDataTypes(value)}
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
  );
}
