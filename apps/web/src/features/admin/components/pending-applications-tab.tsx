import CancelOutlined from '@mui/icons-material/CancelOutlined';
import CheckCircleOutline from '@mui/icons-material/CheckCircleOutline';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { ADMIN_MESSAGES, ADMIN_TEXTS, type ResearcherApplicationView } from '@research/contracts';
import { useState } from 'react';
import { ApplicationDetailsDialog } from './application-details-dialog';
import { ApplicationsTable } from './applications-table';
import { type ReviewAction, ReviewDialog } from './review-dialog';

type Open =
  | { kind: 'details'; application: ResearcherApplicationView }
  | { kind: 'review'; application: ResearcherApplicationView; action: ReviewAction }
  | null;

export function PendingApplicationsTab({ onReviewed }: { onReviewed: (a: ReviewAction) => void }) {
  const [open, setOpen] = useState<Open>(null);
  return (
    <>
      <ApplicationsTable
        status="pending"
        label={ADMIN_TEXTS.tables.pending}
        empty={{ title: ADMIN_TEXTS.empty.pendingTitle, text: ADMIN_TEXTS.empty.pendingText }}
        failedTitle={ADMIN_MESSAGES.loadApplicationsFailed}
        dateLabel={ADMIN_TEXTS.columns.submitted}
        dateOf={(application) => application.submittedAt}
        onView={(application) => setOpen({ kind: 'details', application })}
        actions={(application, name) => (
          <>
            <Tooltip title={ADMIN_TEXTS.actions.approve}>
              <IconButton
                color="success"
                aria-label={`${ADMIN_TEXTS.actions.approve}: ${name}`}
                onClick={() => setOpen({ kind: 'review', application, action: 'approve' })}
              >
                <CheckCircleOutline />
              </IconButton>
            </Tooltip>
            <Tooltip title={ADMIN_TEXTS.actions.reject}>
              <IconButton
                color="error"
                aria-label={`${ADMIN_TEXTS.actions.reject}: ${name}`}
                onClick={() => setOpen({ kind: 'review', application, action: 'reject' })}
              >
                <CancelOutlined />
              </IconButton>
            </Tooltip>
          </>
        )}
      />
      {open?.kind === 'details' && (
        <ApplicationDetailsDialog
          application={open.application}
          onClose={() => setOpen(null)}
          onReview={(action) => setOpen({ kind: 'review', application: open.application, action })}
        />
      )}
      {open?.kind === 'review' && (
        <ReviewDialog
          application={open.application}
          action={open.action}
          onClose={() => setOpen(null)}
          onDone={(action) => {
            setOpen(null);
            onReviewed(action);
          }}
        />
      )}
    </>
  );
}
