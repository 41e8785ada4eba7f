import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  APPLICATION_MESSAGES,
  displayPhone,
  formatAccountPhone,
  REGISTER_TEXTS,
  type ResearcherApplicationInput,
  researcherApplicationSchema,
  toFieldErrors,
} from '@research/contracts';
import { type FormEvent, memo, type ReactNode, useCallback, useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import { DocumentPicker } from './document-picker';

/** Required (trimmed non-empty); department, research area, description are optional. */
const REQUIRED = [
  'firstName',
  'lastName',
  'email',
  'dateOfBirth',
  'phoneNumber',
  'institution',
  'position',
] as const;
const OPTIONAL_FIELDS = ['department', 'researchArea', 'description'] as const;
const FIELD_NAMES = [...REQUIRED, ...OPTIONAL_FIELDS] as const;
type FieldName = (typeof FIELD_NAMES)[number];
const OPTIONAL: readonly FieldName[] = OPTIONAL_FIELDS;
export type FormValues = Record<FieldName, string>;

const isFieldName = (name: string): name is FieldName =>
  (FIELD_NAMES as readonly string[]).includes(name);

/** Trimmed values; optional fields left empty are sent as absent. */
function toRequest(values: FormValues): Record<string, string> {
  const request: Record<string, string> = {};
  for (const name of FIELD_NAMES) {
    const value = values[name].trim();
    if (value !== '' || !OPTIONAL.includes(name)) request[name] = value;
  }
  return request;
}

function todayIso(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

interface ApplicationFormProps {
  initialValues: FormValues;
  /** The signed-in account's address: shown, locked, and always the one sent. */
  lockedEmail: string | null;
  submitting: boolean;
  onSubmit: (application: ResearcherApplicationInput, documents: File[]) => Promise<void>;
}

type FieldErrors = Partial<Record<FieldName, string>>;

export function ApplicationForm({
  initialValues,
  lockedEmail,
  submitting,
  onSubmit,
}: ApplicationFormProps) {
  const [values, setValues] = useState<FormValues>(() => ({
    ...initialValues,
    email: lockedEmail ?? initialValues.email,
    // A resubmission starts from the stored (E.164) number, shown as the field groups it.
    phoneNumber: formatAccountPhone(displayPhone(initialValues.phoneNumber)),
  }));
  const [documents, setDocuments] = useState<File[]>([]);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [today] = useState(todayIso);

  const complete = REQUIRED.every((name) => values[name].trim() !== '');

  // Stable, so that typing in one field re-renders only that field (FormField is memoised).
  const setValue = useCallback((name: FieldName, value: string) => {
    setValues((current) => ({ ...current, [name]: value }));
    setFieldErrors((current) => {
      if (!current[name]) return current;
      const { [name]: _cleared, ...rest } = current;
      return rest;
    });
  }, []);

  const showFieldErrors = (errors: { field: string; message: string }[]): boolean => {
    const next: FieldErrors = {};
    for (const { field, message } of errors) {
      if (isFieldName(field) && !next[field]) next[field] = message;
    }
    setFieldErrors(next);
    return Object.keys(next).length > 0;
  };

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!complete || submitting) return;
    setFormError(null);
    // The same schema as the server's: most mistakes are caught here, without a round trip.
    const parsed = researcherApplicationSchema.safeParse(
      toRequest(lockedEmail ? { ...values, email: lockedEmail } : values),
    );
    if (!parsed.success) {
      if (!showFieldErrors(toFieldErrors(parsed.error.issues))) {
        setFormError(parsed.error.issues[0]?.message ?? APPLICATION_MESSAGES.submitFailed);
      }
      return;
    }
    setFieldErrors({});
    try {
      await onSubmit(parsed.data, documents);
    } catch (error) {
      if (error instanceof ApiError && showFieldErrors(error.fields)) {
        setFormError(REGISTER_TEXTS.fixFields);
        return;
      }
      // The server's message when it gave one; the product's text otherwise (no reply, no text).
      const message =
        error instanceof ApiError && error.status > 0 && error.message
          ? error.message
          : APPLICATION_MESSAGES.submitFailed;
      setFormError(message);
    }
  };

  const field = (name: FieldName, extra: FieldExtras = {}) => (
    <FormField
      name={name}
      label={REGISTER_TEXTS.fields[name]}
      value={values[name]}
      error={fieldErrors[name]}
      disabled={submitting}
      onValueChange={setValue}
      {...extra}
    />
  );

  return (
    <Box component="form" noValidate onSubmit={handleSubmit} aria-busy={submitting}>
      <Section title={REGISTER_TEXTS.personalSection}>
        {field('firstName', { autoComplete: 'given-name' })}
        {field('lastName', { autoComplete: 'family-name' })}
        <Box sx={{ gridColumn: '1 / -1' }}>
          {field('email', {
            type: 'email',
            autoComplete: 'email',
            locked: Boolean(lockedEmail),
            helperText: lockedEmail ? REGISTER_TEXTS.emailLockedHelper : undefined,
          })}
        </Box>
        {field('dateOfBirth', {
          type: 'date',
          autoComplete: 'bday',
          max: today,
        })}
        {field('phoneNumber', {
          type: 'tel',
          autoComplete: 'tel-national',
          placeholder: REGISTER_TEXTS.phonePlaceholder,
          format: formatAccountPhone,
        })}
      </Section>

      <Section title={REGISTER_TEXTS.professionalSection}>
        {field('institution', { autoComplete: 'organization' })}
        {field('position', { autoComplete: 'organization-title' })}
        {field('department', { optional: true })}
        {field('researchArea', { optional: true })}
        <Box sx={{ gridColumn: '1 / -1' }}>
          {field('description', {
            optional: true,
            multiline: true,
            helperText: REGISTER_TEXTS.descriptionHelper,
          })}
        </Box>
      </Section>

      <Section title={REGISTER_TEXTS.documentsSection} columns={1}>
        <DocumentPicker files={documents} onChange={setDocuments} disabled={submitting} />
      </Section>

      <Divider sx={{ my: 3 }} />
      {formError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {formError}
        </Alert>
      )}
      <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
        <Button
          type="submit"
          variant="contained"
          size="large"
          disabled={!complete || submitting}
          startIcon={submitting ? <CircularProgress size={18} color="inherit" /> : undefined}
          sx={{ width: { xs: '100%', sm: 'auto' }, minWidth: 220 }}
        >
          {submitting ? REGISTER_TEXTS.submitting : REGISTER_TEXTS.submit}
        </Button>
      </Box>
    </Box>
  );
}

interface FieldExtras {
  type?: 'email' | 'date' | 'tel';
  autoComplete?: string;
  placeholder?: string;
  helperText?: string;
  optional?: boolean;
  /** Shown but not editable (the account's e-mail). */
  locked?: boolean;
  multiline?: boolean;
  /** Latest allowed date of a date field (yyyy-mm-dd). */
  max?: string;
  /** Rewrites the text as it is typed (the phone formatter). */
  format?: (value: string) => string;
}

interface FormFieldProps extends FieldExtras {
  name: FieldName;
  label: string;
  value: string;
  error: string | undefined;
  disabled: boolean;
  onValueChange: (name: FieldName, value: string) => void;
}

const FormField = memo(function FormField({
  name,
  label,
  value,
  error,
  disabled,
  onValueChange,
  type,
  autoComplete,
  placeholder,
  helperText,
  optional = false,
  locked = false,
  multiline = false,
  max,
  format,
}: FormFieldProps) {
  return (
    <TextField
      name={name}
      label={label}
      type={type}
      autoComplete={autoComplete}
      placeholder={placeholder}
      required={!optional}
      value={value}
      onChange={(event) =>
        onValueChange(name, format ? format(event.target.value) : event.target.value)
      }
      error={Boolean(error)}
      helperText={error ?? helperText}
      disabled={disabled || locked}
      multiline={multiline}
      minRows={multiline ? 4 : undefined}
      fullWidth
      slotProps={{
        inputLabel: type === 'date' ? { shrink: true } : undefined,
        htmlInput: {
          ...(max ? { max } : {}),
          ...(type === 'tel' ? { inputMode: 'numeric' as const } : {}),
        },
      }}
    />
  );
});

function Section({
  title,
  children,
  columns = 2,
}: {
  title: string;
  children: ReactNode;
  columns?: 1 | 2;
}) {
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, mt: 3, minWidth: 0 }}>
      <Typography
        component="legend"
        variant="subtitle1"
        sx={{ fontWeight: 700, mb: 2, color: 'secondary.main', p: 0 }}
      >
        {title}
      </Typography>
      <Box
        sx={{
          display: 'grid',
          gap: 2.5,
          gridTemplateColumns: { xs: '1fr', sm: columns === 2 ? '1fr 1fr' : '1fr' },
        }}
      >
        {children}
      </Box>
    </Box>
  );
}
