import RestartAlt from '@mui/icons-material/RestartAlt';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import {
  ADMIN_MESSAGES,
  formatDateShort,
  type ResearcherApplicationView,
} from '@research/contracts';
import { useState } from 'react';
import { LoadingIndicator } from '../../../components/loading-indicator';
import { ADMIN_PAGE_SIZE } from '../api/admin-keys';
import { useApplications } from '../api/get-applications';
import { useResetApplication } from '../api/reset-application';
import { ADMIN_TEXTS } from '../texts';
import {
  DescriptionCell,
  EmptyState,
  FailureAlert,
  fullName,
  PersonCell,
  StatusChip,
} from './admin-ui';
import { clampPage, PagedTable } from './paged-table';
import { RejectedDetailsDialog } from './rejected-details-dialog';

const c = ADMIN_TEXTS.columns;
const HEADERS = [c.applicant, c.institution, c.description, c.status, c.rejected, c.actions];

export function RejectedApplicationsTab({ onReset }: { onReset: () => void }) {
  const [page, setPage] = useState(0);
  const [open, setOpen] = useState<ResearcherApplicationView | null>(null);
  const reset = useResetApplication();
  const list = useApplications({
    status: 'rejected',
    limit: ADMIN_PAGE_SIZE,
    offset: page * ADMIN_PAGE_SIZE,
  });

  if (list.isPending) return <LoadingIndicator />;
  if (list.isError) {
    return <FailureAlert title={ADMIN_MESSAGES.loadRejectedFailed} error={list.error} />;
  }
  const { applications, totalCount } = list.data;
  const shownPage = clampPage(page, totalCount);
  if (shownPage !== page) setPage(shownPage);

  return (
    <>
      {reset.isError && (
        <FailureAlert
          title={ADMIN_MESSAGES.resetFailed}
          error={reset.error}
          onClose={() => reset.reset()}
        />
      )}
      {totalCount === 0 ? (
        <EmptyState title={ADMIN_TEXTS.empty.rejectedTitle} text={ADMIN_TEXTS.empty.rejectedText} />
      ) : (
        <PagedTable
          label={ADMIN_TEXTS.tables.rejected}
          headers={HEADERS}
          totalCount={totalCount}
          page={shownPage}
          onPageChange={setPage}
        >
          {applications.map((application) => {
            const name = fullName(application);
            const resetting = reset.isPending && reset.variables === application.id;
            return (
              <TableRow key={application.id} hover>
                <TableCell>
                  <PersonCell name={name} email={application.email} />
                </TableCell>
                <TableCell>{application.institution}</TableCell>
                <TableCell>
                  <DescriptionCell text={application.description} />
                </TableCell>
                <TableCell>
                  <StatusChip status={application.status} />
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {formatDateShort(application.reviewedAt)}
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  <Box sx={{ display: 'flex', gap: 0.5 }}>
                    <Tooltip title={ADMIN_TEXTS.actions.viewDetails}>
                      <IconButton
                        aria-label={`${ADMIN_TEXTS.actions.viewDetails}: ${name}`}
                        onClick={() => setOpen(application)}
                      >
                        <VisibilityOutlined />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title={ADMIN_TEXTS.actions.reset}>
                      <span>
                        <IconButton
                          color="secondary"
                          aria-label={`${ADMIN_TEXTS.actions.reset}: ${name}`}
                          disabled={reset.isPending}
                          onClick={() => reset.mutate(application.id, { onSuccess: onReset })}
                        >
                          {resetting ? <CircularProgress size={20} /> : <RestartAlt />}
                        </IconButton>
                      </span>
                    </Tooltip>
                  </Box>
                </TableCell>
              </TableRow>
            );
          })}
        </PagedTable>
      )}
      {open && <RejectedDetailsDialog application={open} onClose={() => setOpen(null)} />}
    </>
  );
}
