import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { EXTRACTION_PANEL_TEXTS as T, type WearableAuthorizationRow } from '@research/contracts';
import { DataTypePicker as SharedDataTypePicker } from '../../../components/data-type-picker';
import { ParticipantPicker as SharedParticipantPicker } from '../../../components/participant-picker';
import type { DateMode, ExtractionSelection } from '../use-extraction-form';

export { participantLabelOf, participantNameOf } from '../../../components/participant-picker';

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
  return (
    <SharedParticipantPicker
      rows={rows}
      loading={loading}
      selected={selection.selected}
      onChange={selection.setSelected}
    />
  );
}

/** The data types to extract, each with its note. */
export function DataTypePicker({ selection }: { selection: ExtractionSelection }) {
  return <SharedDataTypePicker value={selection.dataTypes} onChange={selection.setDataTypes} />;
}
