import ContentCopy from '@mui/icons-material/ContentCopy';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Snackbar from '@mui/material/Snackbar';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { type StartExportBody, EXPORT_PANEL_TEXTS as T } from '@research/contracts';
import { useId, useMemo, useState } from 'react';
import { pythonScript, rScript } from '../script-snippets';

type Language = keyof typeof T.languages;

export interface ScriptSnippetsCardProps {
  studyId: string;
  /** The form's selection, filled into the scripts. */
  body: StartExportBody;
  /** Whether the selection is complete; otherwise the scripts say to complete it. */
  complete: boolean;
}

/** "Use from a script": R and Python that do what the tab does, with a token from WRP_TOKEN. */
export function ScriptSnippetsCard({ studyId, body, complete }: ScriptSnippetsCardProps) {
  const headingId = useId();
  const [language, setLanguage] = useState<Language>('r');
  const [copied, setCopied] = useState(false);
  const [copyFailed, setCopyFailed] = useState(false);
  const code = useMemo(() => {
    const input = { baseUrl: window.location.origin, studyId, body };
    return language === 'r' ? rScript(input) : pythonScript(input);
  }, [language, studyId, body]);

  const copy = async () => {
    setCopyFailed(false);
    try {
      if (!navigator.clipboard) throw new Error('Clipboard unavailable');
      await navigator.clipboard.writeText(code);
      setCopied(true);
    } catch {
      setCopyFailed(true);
    }
  };

  return (
    <Card variant="outlined" component="section" aria-labelledby={headingId}>
      <CardContent>
        <Typography id={headingId} variant="h6" component="h2">
          {T.scriptTitle}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {T.scriptIntro}
        </Typography>
        <Typography variant="body2" sx={{ mt: 1 }}>
          {T.scriptToken}
        </Typography>
        {!complete && (
          <Alert severity="info" sx={{ mt: 1 }}>
            {T.scriptIncomplete}
          </Alert>
        )}
        <Stack
          direction="row"
          spacing={1}
          useFlexGap
          alignItems="center"
          justifyContent="space-between"
          sx={{ mt: 2, flexWrap: 'wrap', rowGap: 1 }}
        >
          <ToggleButtonGroup
            exclusive
            size="small"
            color="primary"
            value={language}
            aria-label={T.languagesLabel}
            onChange={(_e, value: Language | null) => value && setLanguage(value)}
          >
            <ToggleButton value="r">{T.languages.r}</ToggleButton>
            <ToggleButton value="python">{T.languages.python}</ToggleButton>
          </ToggleButtonGroup>
          <Button size="small" startIcon={<ContentCopy />} onClick={copy}>
            {T.copy}
          </Button>
        </Stack>
        {copyFailed && (
          <Alert severity="warning" sx={{ mt: 1 }}>
            {T.copyFailed}
          </Alert>
        )}
        {/* Scrolls sideways inside its frame on a phone; focusable so the keyboard can scroll it. */}
        <Box
          component="pre"
          role="region"
          aria-label={T.scriptOf(T.languages[language])}
          tabIndex={0}
          sx={{
            mt: 1.5,
            mb: 0,
            p: 1.5,
            bgcolor: 'grey.100',
            borderRadius: 1,
            overflowX: 'auto',
            fontSize: '0.8125rem',
            lineHeight: 1.5,
            maxWidth: '100%',
          }}
        >
          <code>{code}</code>
        </Box>
      </CardContent>
      <Snackbar
        open={copied}
        autoHideDuration={2500}
        onClose={() => setCopied(false)}
        message={T.copied}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      />
    </Card>
  );
}
