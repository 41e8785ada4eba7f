import Autocomplete from '@mui/material/Autocomplete';
import Checkbox from '@mui/material/Checkbox';
import ListItemText from '@mui/material/ListItemText';
import TextField from '@mui/material/TextField';
import {
  DATA_TYPE_NOTES,
  DATA_TYPES,
  type DataType,
  EXTRACTION_PANEL_TEXTS as T,
} from '@research/contracts';
import type { Ref } from 'react';

export interface DataTypePickerProps {
  value: DataType[];
  onChange: (types: DataType[]) => void;
  helperText?: string;
  /** A validation message; shown instead of the help text. */
  error?: string | null;
  inputRef?: Ref<HTMLInputElement>;
}

/** The data types of the catalogue, each with its note on how it differs from Fitbit's. */
export function DataTypePicker({
  value,
  onChange,
  helperText,
  error = null,
  inputRef,
}: DataTypePickerProps) {
  return (
    <Autocomplete
      multiple
      disableCloseOnSelect
      options={[...DATA_TYPES]}
      value={value}
      onChange={(_e, types) => onChange(types)}
      renderOption={(props, type, { selected: checked }) => {
        const { key, ...rest } = props;
        return (
          <li key={key} {...rest}>
            <Checkbox size="small" checked={checked} sx={{ mr: 1 }} />
            <ListItemText primary={type} secondary={DATA_TYPE_NOTES[type] ?? null} />
          </li>
        );
      }}
      renderInput={(params) => (
        <TextField
          {...params}
          inputRef={inputRef}
          label={T.dataTypes}
          error={error !== null}
          helperText={error ?? helperText}
        />
      )}
    />
  );
}
