import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { previewList, EXTRACTION_PANEL_TEXTS as T } from '@research/contracts';
import type { ExtractionSelection, StartExtractionDialogState } from '../use-extraction-form';
import { participantLabelOf } from './extraction-selection';
import { PreviewBlock, SummaryLines } from './summary-lines';

/** The estimate's calls, '…' while the first answer for a complete selection is on its way. */
const callsOf = (selection: ExtractionSelection) =>
  selection.estimate ? String(selection.estimate.calls) : selection.complete ? '…' : '0';

/** The counts, dates, calls and time the current selection gives. */
export function SelectionSummary({ selection }: { selection: ExtractionSelection }) {
  const { estimate } = selection;
  return (
    <Card variant="outlined" sx={{ bgcolor: 'action.hover' }}>
      <CardContent>
        <Typography variant="subtitle1" component="h3" gutterBottom>
          {T.summaryTitle}
        </Typography>
        <SummaryLines
          lines={[
            [T.summaryParticipants, String(selection.selected.length)],
            [T.summaryDataTypes, String(selection.dataTypes.length)],
            [T.summaryDates, selection.dates],
            [T.summaryCalls, callsOf(selection)],
            [
              T.summaryTime,
              estimate
                ? T.estimatedTime(estimate.seconds.min, estimate.seconds.max)
                : selection.complete
                  ? T.estimating
                  : '—',
            ],
          ]}
        />
      </CardContent>
    </Card>
  );
}

export interface NameDialogProps {
  selection: ExtractionSelection;
  dialog: StartExtractionDialogState;
}

/** Names the extraction and starts it. */
export function NameDialog({ selection, dialog }: NameDialogProps) {
  const missingName = !dialog.name.trim();
  return (
    <Dialog open={dialog.open} onClose={dialog.close} fullWidth maxWidth="sm">
      <DialogTitle>{T.nameDialogTitle}</DialogTitle>
      <DialogContent>
        <TextField
          autoFocus
          fullWidth
          margin="dense"
          label={T.nameLabel}
          value={dialog.name}
          onChange={(e) => dialog.setName(e.target.value)}
          onBlur={dialog.touchName}
          error={dialog.nameTouched && missingName}
          helperText={dialog.nameTouched && missingName ? T.nameRequired : ' '}
        />
        <SummaryLines
          lines={[
            [T.summaryParticipants, String(selection.selected.length)],
            [T.summaryDataTypes, selection.dataTypes.join(', ')],
            [T.summaryDates, selection.dates],
            [T.summaryCalls, callsOf(selection)],
          ]}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={dialog.close}>{T.cancel}</Button>
        <Button
          variant="contained"
          onClick={dialog.submit}
          disabled={missingName || dialog.pending}
        >
          {T.startExtraction}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export interface PreviewDialogProps {
  selection: ExtractionSelection;
  open: boolean;
  onClose: () => void;
}

/** Who and what the selection covers, before starting it. */
export function PreviewDialog({ selection, open, onClose }: PreviewDialogProps) {
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{T.previewTitle}</DialogTitle>
      <DialogContent>
        <PreviewBlock
          title={T.summaryParticipants}
          preview={previewList(selection.selected.map(participantLabelOf))}
        />
        <PreviewBlock title={T.summaryDataTypes} preview={previewList(selection.dataTypes)} />
        <SummaryLines
          lines={[
            [T.summaryDates, selection.dates],
            [T.summaryCalls, callsOf(selection)],
          ]}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{T.close}</Button>
      </DialogActions>
    </Dialog>
  );
}
