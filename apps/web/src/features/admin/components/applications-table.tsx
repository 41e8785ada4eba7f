import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import { ADMIN_TEXTS, formatDateShort, type ResearcherApplicationView } from '@research/contracts';
import { type ReactNode, useState } from 'react';
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

const c = ADMIN_TEXTS.columns;

export interface ApplicationsTableProps {
  status: 'pending' | 'rejected';
  /** The table's accessible name and its empty state. */
  label: string;
  empty: { title: string; text: string };
  failedTitle: string;
  /** The date column: its header and the date it shows. */
  dateLabel: string;
  dateOf: (application: ResearcherApplicationView) => string | null;
  onView: (application: ResearcherApplicationView) => void;
  /** The row's buttons after 'View details'; `name` is for their labels. */
  actions: (application: ResearcherApplicationView, name: string) => ReactNode;
}

/**
 * One page of applications of a status, as a table on wide screens and cards on narrow ones:
 * the pending and the rejected tabs differ only in their date column and their buttons.
 */
export function ApplicationsTable({
  status,
  label,
  empty,
  failedTitle,
  dateLabel,
  dateOf,
  onView,
  actions,
}: ApplicationsTableProps) {
  const [page, setPage] = useState(0);
  const list = useApplications({ status, limit: ADMIN_PAGE_SIZE, offset: page * ADMIN_PAGE_SIZE });

  if (list.isPending) return <LoadingIndicator />;
  if (list.isError) return <FailureAlert title={failedTitle} error={list.error} />;
  const { applications, totalCount } = list.data;
  const shownPage = clampPage(page, totalCount);
  if (shownPage !== page) setPage(shownPage);
  if (totalCount === 0) return <EmptyState title={empty.title} text={empty.text} />;

  const actionsOf = (application: ResearcherApplicationView) => {
    const name = fullName(application);
    return (
      <Box sx={{ display: 'flex', gap: 0.5 }}>
        <Tooltip title={ADMIN_TEXTS.actions.viewDetails}>
          <IconButton
            aria-label={`${ADMIN_TEXTS.actions.viewDetails}: ${name}`}
            onClick={() => onView(application)}
          >
            <VisibilityOutlined />
          </IconButton>
        </Tooltip>
        {actions(application, name)}
      </Box>
    );
  };

  return (
    <PagedTable
      label={label}
      headers={[c.applicant, c.institution, c.description, c.status, dateLabel, c.actions]}
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
            { label: dateLabel, value: formatDateShort(dateOf(application)) },
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
            {formatDateShort(dateOf(application))}
          </TableCell>
          <TableCell sx={{ whiteSpace: 'nowrap' }}>{actionsOf(application)}</TableCell>
        </TableRow>
      ))}
    </PagedTable>
  );
}
