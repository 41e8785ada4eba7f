import RestartAlt from '@mui/icons-material/RestartAlt';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { ADMIN_MESSAGES, ADMIN_TEXTS, type ResearcherApplicationView } from '@research/contracts';
import { useState } from 'react';
import { ApplicationsTable } from './applications-table';
import { RejectedDetailsDialog } from './rejected-details-dialog';
import { ResetDialog } from './reset-dialog';

export function RejectedApplicationsTab({ onReset }: { onReset: () => void }) {
  const [open, setOpen] = useState<ResearcherApplicationView | null>(null);
  const [resetting, setResetting] = useState<ResearcherApplicationView | null>(null);
  return (
    <>
      <ApplicationsTable
        status="rejected"
        label={ADMIN_TEXTS.tables.rejected}
        empty={{ title: ADMIN_TEXTS.empty.rejectedTitle, text: ADMIN_TEXTS.empty.rejectedText }}
        failedTitle={ADMIN_MESSAGES.loadRejectedFailed}
        dateLabel={ADMIN_TEXTS.columns.rejected}
        dateOf={(application) => application.reviewedAt}
        onView={setOpen}
        actions={(application, name) => (
          <Tooltip title={ADMIN_TEXTS.actions.reset}>
            <IconButton
              color="secondary"
              aria-label={`${ADMIN_TEXTS.actions.reset}: ${name}`}
              onClick={() => setResetting(application)}
            >
              <RestartAlt />
            </IconButton>
          </Tooltip>
        )}
      />
      {open && <RejectedDetailsDialog application={open} onClose={() => setOpen(null)} />}
      {resetting && (
        <ResetDialog
          application={resetting}
          onClose={() => setResetting(null)}
          onDone={() => {
            setResetting(null);
            onReset();
          }}
        />
      )}
    </>
  );
}
