import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Divider from '@mui/material/Divider';
import Typography from '@mui/material/Typography';
import { type ExportSummary, EXPORT_PANEL_TEXTS as T } from '@research/contracts';
import { useCallback, useState } from 'react';
import { useParticipantAuthorizations } from '../../lib/participant-authorizations';
import { useExports } from './api/get-exports';
import { ExportForm } from './components/export-form';
import { ExportList } from './components/export-list';
import { ScriptSnippetsCard } from './components/script-snippets-card';
import { useExportForm } from './use-export-form';

export interface ExportPanelProps {
  studyId: string;
  signedIn: boolean;
}

/**
 * The Data export tab's own content: the export form, the study's exports and the scripts that
 * do the same from R or Python. A vertical stack; the route adds the sections below it.
 */
export function ExportPanel({ studyId, signedIn }: ExportPanelProps) {
  const authorizations = useParticipantAuthorizations(studyId);
  const exports = useExports(studyId);
  const [focusId, setFocusId] = useState<string | null>(null);
  const form = useExportForm(studyId, signedIn, (started: ExportSummary) => setFocusId(started.id));
  const onFocused = useCallback(() => setFocusId(null), []);

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3, minWidth: 0 }}>
      <Card variant="outlined" component="section" aria-labelledby="data-export-title">
        <CardContent>
          <Typography id="data-export-title" variant="h6" component="h2">
            {T.title}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {T.intro}
          </Typography>
          <ExportForm
            form={form}
            rows={authorizations.data ?? []}
            loadingRows={authorizations.isLoading}
          />
          <Divider sx={{ my: 3 }} />
          <ExportList
            studyId={studyId}
            exports={exports.data ?? []}
            loading={exports.isPending}
            error={exports.isError ? `${T.loadFailed} ${exports.error.message}` : null}
            focusId={focusId}
            onFocused={onFocused}
          />
        </CardContent>
      </Card>
      <ScriptSnippetsCard studyId={studyId} body={form.body} complete={form.complete} />
    </Box>
  );
}
