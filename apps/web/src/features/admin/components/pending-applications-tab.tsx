import CancelOutlined from '@mui/icons-material/CancelOutlined';
import CheckCircleOutline from '@mui/icons-material/CheckCircleOutline';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import {
  ADMIN_MESSAGES,
  ADMIN_TEXTS,
  formatDateShort,
  type ResearcherApplicationView,
} from '@research/contracts';
import { useState } from 'react';
import { LoadingIndicator } from '../../../components/loading-indicator';
import { ADMIN_PAGE_SIZE } from '../api/admin-keys';
import { useApplications } from '../api/get-applications';
import {
  DescriptionCell,
  EmptyState,
  FailureAlert,
  fullName,
  PersonCell,
  RowCard,
  StatusChip,
} from './admin-ui';
import { ApplicationDetailsDialog } from './application-details-dialog';
import { clampPage, PagedTable } from './paged-table';
import { type ReviewAction, ReviewDialog } from './review-dialog';

const c = ADMIN_TEXTS.columns;
const HEADERS = [c.applicant, c.institution, c.description, c.status, c.submitted, c.actions];

type Open =
  | { kind: 'details'; application: ResearcherApplicationView }
  | { kind: 'review'; application: ResearcherApplicationView; action: ReviewAction }
  | null;

export function PendingApplicationsTab({ onReviewed }: { onReviewed: (a: ReviewAction) => void }) {
  const [page, setPage] = useState(0);
  const [open, setOpen] = useState<Open>(null);
  const list = useApplications({
    status: 'pending',
    limit: ADMIN_PAGE_SIZE,
    offset: page * ADMIN_PAGE_SIZE,
  });

  if (list.isPending) return <LoadingIndicator />;
  if (list.isError) {
    return <FailureAlert title={ADMIN_MESSAGES.loadApplicationsFailed} error={list.error} />;
  }
  const { applications, totalCount } = list.data;
  const shownPage = clampPage(page, totalCount);
  if (shownPage !== page) setPage(shownPage);

  const actionsOf = (application: ResearcherApplicationView) => {
    const name = fullName(application);
    return (
      <Box sx={{ display: 'flex', gap: 0.5 }}>
        <Tooltip title={ADMIN_TEXTS.actions.viewDetails}>
          <IconButton
            aria-label={`${ADMIN_TEXTS.actions.viewDetails}: ${name}`}
            onClick={() => setOpen({ kind: 'details', application })}
          >
            <VisibilityOutlined />
          </IconButton>
        </Tooltip>
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
      </Box>
    );
  };

  return (
    <>
      {totalCount === 0 ? (
        <EmptyState title={ADMIN_TEXTS.empty.pendingTitle} text={ADMIN_TEXTS.empty.pendingText} />
      ) : (
        <PagedTable
          label={ADMIN_TEXTS.tables.pending}
          headers={HEADERS}
          totalCount={totalCount}
          page={shownPage}
          onPageChange={setPage}
          cards={applications.map((application) => (
            <RowCard
              key={application.id}
              name={fullName(application)}
              email={application.email}
              status={application.status}
              lines={[
                { label: c.institution, value: application.institution },
                { label: c.submitted, value: formatDateShort(application.submittedAt) },
              ]}
              description={application.description}
              actions={actionsOf(application)}
            />
          ))}
        >
          {applications.map((application) => (
            <TableRow key={application.id} hover>
              <TableCell>
                <PersonCell name={fullName(application)} email={application.email} />
              </TableCell>
              <TableCell>{application.institution}</TableCell>
              <TableCell>
                <DescriptionCell text={application.description} />
              </TableCell>
              <TableCell>
                <StatusChip status={application.status} />
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                {formatDateShort(application.submittedAt)}
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{actionsOf(application)}</TableCell>
            </TableRow>
          ))}
        </PagedTable>
      )}
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
