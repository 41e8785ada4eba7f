import CheckBox from '@mui/icons-material/CheckBox';
import CheckBoxOutlineBlank from '@mui/icons-material/CheckBoxOutlineBlank';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  CONTACT_MESSAGES,
  INVITE_DIALOG_TEXTS,
  keepTypedRecipients,
  normalizeEmail,
} from '@research/contracts';

/** The contact list scrolls at 200 px. */
export const CONTACT_LIST_HEIGHT = 200;

export interface RecipientOption {
  email: string;
  /** A name to show next to the address, when known. */
  label?: string;
}

export interface ContactDraft {
  title: string;
  content: string;
  selected: string[];
  /** Typed extra addresses, comma separated. */
  extras: string;
}

export const EMPTY_CONTACT_DRAFT: ContactDraft = {
  title: '',
  content: '',
  selected: [],
  extras: '',
};

/** Selected plus kept extras, each address once. */
export function contactRecipients(draft: ContactDraft): string[] {
  return [
    ...new Set([...draft.selected.map(normalizeEmail), ...keepTypedRecipients(draft.extras)]),
  ];
}

/** The first 'Contact' rule the draft breaks, or null. */
export function contactProblem(draft: ContactDraft): string | null {
  if (!draft.title.trim() || !draft.content.trim()) return CONTACT_MESSAGES.titleAndContentRequired;
  if (contactRecipients(draft).length === 0) return CONTACT_MESSAGES.selectRecipient;
  return null;
}

export interface ContactFormProps {
  draft: ContactDraft;
  onChange: (draft: ContactDraft) => void;
  options: RecipientOption[];
  loadingOptions: boolean;
  emptyOptionsText: string;
  /** The rule broken at the last Continue, shown once, inline. */
  problem: string | null;
  /** Typed extra addresses (participants only: collaborator mail goes to members). */
  allowExtras?: boolean;
  disabled?: boolean;
  /**
   * A search over the whole list on the server, for lists longer than one page: the text and its
   * setter, and how many match in all (the list shows the first `options.length`).
   */
  search?: { value: string; onChange: (value: string) => void; totalCount: number };
}

/** Compose a contact e-mail: title, content, recipients picked from a list plus typed extras. */
export function ContactForm({
  draft,
  onChange,
  options,
  loadingOptions,
  emptyOptionsText,
  problem,
  allowExtras = true,
  disabled = false,
  search,
}: ContactFormProps) {
  const selected = new Set(draft.selected);
  const toggle = (email: string) => {
    const next = new Set(selected);
    if (next.has(email)) next.delete(email);
    else next.add(email);
    onChange({ ...draft, selected: [...next] });
  };
  const titleMissing = problem === CONTACT_MESSAGES.titleAndContentRequired;
  const recipientsMissing = problem === CONTACT_MESSAGES.selectRecipient;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      {problem && (
        <Alert severity="warning" role="alert">
          {problem}
        </Alert>
      )}
      <TextField
        label={INVITE_DIALOG_TEXTS.contactTitle}
        value={draft.title}
        onChange={(event) => onChange({ ...draft, title: event.target.value })}
        error={titleMissing && !draft.title.trim()}
        disabled={disabled}
        required
        fullWidth
      />
      <TextField
        label={INVITE_DIALOG_TEXTS.contactContent}
        value={draft.content}
        onChange={(event) => onChange({ ...draft, content: event.target.value })}
        error={titleMissing && !draft.content.trim()}
        disabled={disabled}
        required
        multiline
        minRows={5}
        fullWidth
      />
      <Box>
        <Box
          sx={{
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'space-between',
            flexWrap: 'wrap',
            gap: 1,
            mb: 0.5,
          }}
        >
          <Typography variant="subtitle2" component="h3" id="contact-recipients-label">
            {INVITE_DIALOG_TEXTS.recipients}{' '}
            <Typography component="span" variant="body2" color="text.secondary">
              ({INVITE_DIALOG_TEXTS.selectedCount(contactRecipients(draft).length)})
            </Typography>
          </Typography>
          <Box sx={{ display: 'flex', gap: 1 }}>
            <Button
              size="small"
              disabled={disabled || options.length === 0}
              onClick={() =>
                onChange({
                  ...draft,
                  // Adds the shown options; picks made under another search stay.
                  selected: [...new Set([...draft.selected, ...options.map((o) => o.email)])],
                })
              }
            >
              {INVITE_DIALOG_TEXTS.selectAll}
            </Button>
            <Button
              size="small"
              disabled={disabled || draft.selected.length === 0}
              onClick={() => onChange({ ...draft, selected: [] })}
            >
              {INVITE_DIALOG_TEXTS.clear}
            </Button>
          </Box>
        </Box>
        {search && (
          <TextField
            type="search"
            size="small"
            label={INVITE_DIALOG_TEXTS.recipientSearch}
            value={search.value}
            onChange={(event) => search.onChange(event.target.value)}
            disabled={disabled}
            fullWidth
            sx={{ mb: 1 }}
            slotProps={{ htmlInput: { maxLength: 200 } }}
          />
        )}
        <Box
          sx={{
            maxHeight: CONTACT_LIST_HEIGHT,
            overflowY: 'auto',
            border: 1,
            borderColor: recipientsMissing ? 'error.main' : 'divider',
            borderRadius: 2,
          }}
          data-testid="contact-recipient-list"
        >
          {loadingOptions ? (
            <Box sx={{ display: 'grid', placeItems: 'center', py: 3 }}>
              <CircularProgress size={24} />
            </Box>
          ) : options.length === 0 ? (
            <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
              {search?.value.trim() ? INVITE_DIALOG_TEXTS.noRecipientMatches : emptyOptionsText}
            </Typography>
          ) : (
            <List dense disablePadding aria-labelledby="contact-recipients-label">
              {options.map((option) => (
                <ListItem key={option.email} disablePadding>
                  <ListItemButton
                    onClick={() => toggle(option.email)}
                    disabled={disabled}
                    role="checkbox"
                    aria-checked={selected.has(option.email)}
                  >
                    {/* The row is the checkbox: a second control inside it (even unfocusable)
                        would be a nested interactive element, so only the box's picture shows. */}
                    <ListItemIcon sx={{ minWidth: 36 }}>
                      {selected.has(option.email) ? (
                        <CheckBox fontSize="small" color={disabled ? 'disabled' : 'primary'} />
                      ) : (
                        <CheckBoxOutlineBlank fontSize="small" color="action" />
                      )}
                    </ListItemIcon>
                    <ListItemText
                      primary={option.label || option.email}
                      secondary={option.label ? option.email : undefined}
                      sx={{ overflowWrap: 'anywhere' }}
                    />
                  </ListItemButton>
                </ListItem>
              ))}
            </List>
          )}
        </Box>
        {search && search.totalCount > options.length && (
          <Typography variant="caption" color="text.secondary" role="status">
            {INVITE_DIALOG_TEXTS.showingSome(options.length, search.totalCount)}
          </Typography>
        )}
      </Box>
      {allowExtras && (
        <TextField
          label={INVITE_DIALOG_TEXTS.extraRecipients}
          helperText={INVITE_DIALOG_TEXTS.extraRecipientsHelper}
          value={draft.extras}
          onChange={(event) => onChange({ ...draft, extras: event.target.value })}
          error={recipientsMissing}
          disabled={disabled}
          fullWidth
        />
      )}
    </Box>
  );
}
