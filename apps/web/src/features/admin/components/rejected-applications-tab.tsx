import RestartAlt from '@mui/icons-material/RestartAlt';
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
import { clampPage, PagedTable } from './paged-table';
import { RejectedDetailsDialog } from './rejected-details-dialog';
import { ResetDialog } from './reset-dialog';

const c = ADMIN_TEXTS.columns;
const HEADERS = [c.applicant, c.institution, c.description, c.status, c.rejected, c.actions];

export function RejectedApplicationsTab({ onReset }: { onReset: () => void }) {
  const [page, setPage] = useState(0);
  const [open, setOpen] = useState<ResearcherApplicationView | null>(null);
  const [resetting, setResetting] = useState<ResearcherApplicationView | null>(null);
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

  const actionsOf = (application: ResearcherApplicationView) => {
    const name = fullName(application);
    return (
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
          <IconButton
            color="secondary"
            aria-label={`${ADMIN_TEXTS.actions.reset}: ${name}`}
            onClick={() => setResetting(application)}
          >
            <RestartAlt />
          </IconButton>
        </Tooltip>
      </Box>
    );
  };

  return (
    <>
      {totalCount === 0 ? (
        <EmptyState title={ADMIN_TEXTS.empty.rejectedTitle} text={ADMIN_TEXTS.empty.rejectedText} />
      ) : (
        <PagedTable
          label={ADMIN_TEXTS.tables.rejected}
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
                { label: c.rejected, value: formatDateShort(application.reviewedAt) },
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
                {formatDateShort(application.reviewedAt)}
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{actionsOf(application)}</TableCell>
            </TableRow>
          ))}
        </PagedTable>
      )}
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
