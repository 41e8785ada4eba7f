import Autocomplete, { createFilterOptions } from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import {
  DATA_TYPE_SCOPES,
  DATA_TYPES,
  type DataType,
  EXTRACTION_PANEL_TEXTS as T,
  type WearableAuthorizationRow,
} from '@research/contracts';
import { type Ref, useMemo } from 'react';

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

/** Why a participant cannot be picked, or what their grant cannot give; '' when nothing. */
function participantNote(row: WearableAuthorizationRow): string {
  if (!row.authorizationStatus) return T.notAuthorized;
  const missing = missingTypes(row);
  return missing.length > 0 ? T.cannotGive(missing.join(', ')) : '';
}

const isConnected = (row: WearableAuthorizationRow) => row.authorizationStatus;

export interface ParticipantPickerProps {
  rows: WearableAuthorizationRow[];
  loading: boolean;
  selected: WearableAuthorizationRow[];
  onChange: (rows: WearableAuthorizationRow[]) => void;
  /** Who may be picked (and whom the select-all button takes); connected participants by default. */
  selectable?: (row: WearableAuthorizationRow) => boolean;
  helperText?: string;
  /** The select-all button's label for the count it would select. */
  selectAllLabel?: (count: number) => string;
  /** A validation message; shown instead of the help text. */
  error?: string | null;
  inputRef?: Ref<HTMLInputElement>;
}

/**
 * Participants of the study, found by name, e-mail or id, each with what their grant cannot
 * give; those who may not be picked are shown disabled. Used by the extraction and export forms.
 */
export function ParticipantPicker({
  rows,
  loading,
  selected,
  onChange,
  selectable = isConnected,
  helperText = T.participantsHelp,
  selectAllLabel = T.selectAll,
  error = null,
  inputRef,
}: ParticipantPickerProps) {
  const pickable = useMemo(() => rows.filter(selectable), [rows, selectable]);
  return (
    <Box>
      <Autocomplete
        multiple
        disableCloseOnSelect
        options={rows}
        value={selected}
        loading={loading}
        getOptionDisabled={(row) => !selectable(row)}
        getOptionLabel={participantLabelOf}
        filterOptions={filterParticipants}
        isOptionEqualToValue={(a, b) => a.participantId === b.participantId}
        onChange={(_e, value) => onChange(value)}
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
          <TextField
            {...params}
            inputRef={inputRef}
            label={T.participants}
            error={error !== null}
            helperText={error ?? helperText}
          />
        )}
      />
      <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
        <Button size="small" onClick={() => onChange(pickable)} disabled={pickable.length === 0}>
          {selectAllLabel(pickable.length)}
        </Button>
        <Button size="small" onClick={() => onChange([])}>
          {T.clear}
        </Button>
      </Stack>
    </Box>
  );
}
