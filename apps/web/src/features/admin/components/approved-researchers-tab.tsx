import ArticleOutlined from '@mui/icons-material/ArticleOutlined';
import IconButton from '@mui/material/IconButton';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { ADMIN_MESSAGES, formatDateShort, type Researcher } from '@research/contracts';
import { useState } from 'react';
import { LoadingIndicator } from '../../../components/loading-indicator';
import { ADMIN_PAGE_SIZE } from '../api/admin-keys';
import { useResearchers } from '../api/get-researchers';
import { ADMIN_TEXTS } from '../texts';
import { EmptyState, FailureAlert, fullName, PersonCell, StatusChip } from './admin-ui';
import { clampPage, PagedTable } from './paged-table';
import { ResearcherApplicationDialog } from './researcher-application-dialog';

const c = ADMIN_TEXTS.columns;
const HEADERS = [
  c.researcher,
  c.institution,
  c.researchArea,
  c.status,
  c.approved,
  c.lastLogin,
  c.actions,
];

export function ApprovedResearchersTab() {
  const [page, setPage] = useState(0);
  const [open, setOpen] = useState<Researcher | null>(null);
  const list = useResearchers({
    status: 'approved',
    limit: ADMIN_PAGE_SIZE,
    offset: page * ADMIN_PAGE_SIZE,
  });

  if (list.isPending) return <LoadingIndicator />;
  if (list.isError) {
    return <FailureAlert title={ADMIN_MESSAGES.loadResearchersFailed} error={list.error} />;
  }
  const { researchers, totalCount } = list.data;
  const shownPage = clampPage(page, totalCount);
  if (shownPage !== page) setPage(shownPage);

  return (
    <>
      {totalCount === 0 ? (
        <EmptyState
          title={ADMIN_TEXTS.empty.researchersTitle}
          text={ADMIN_TEXTS.empty.researchersText}
        />
      ) : (
        <PagedTable
          label={ADMIN_TEXTS.tables.approved}
          headers={HEADERS}
          totalCount={totalCount}
          page={shownPage}
          onPageChange={setPage}
        >
          {researchers.map((researcher) => {
            const name = fullName(researcher);
            return (
              <TableRow key={researcher.id} hover>
                <TableCell>
                  <PersonCell name={name} email={researcher.email} />
                </TableCell>
                <TableCell>
                  <Typography variant="body2">{researcher.institution}</Typography>
                  {researcher.department && (
                    <Typography variant="body2" color="text.secondary">
                      {researcher.department}
                    </Typography>
                  )}
                </TableCell>
                <TableCell>{researcher.researchArea || ADMIN_TEXTS.notSpecified}</TableCell>
                <TableCell>
                  <StatusChip status={researcher.status} />
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {formatDateShort(researcher.approvedAt) || ADMIN_TEXTS.notSpecified}
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {formatDateShort(researcher.lastLoginAt) || ADMIN_TEXTS.never}
                </TableCell>
                <TableCell>
                  <Tooltip title={ADMIN_TEXTS.actions.viewApplication}>
                    <IconButton
                      aria-label={`${ADMIN_TEXTS.actions.viewApplication}: ${name}`}
                      onClick={() => setOpen(researcher)}
                    >
                      <ArticleOutlined />
                    </IconButton>
                  </Tooltip>
                </TableCell>
              </TableRow>
            );
          })}
        </PagedTable>
      )}
      {open && <ResearcherApplicationDialog researcher={open} onClose={() => setOpen(null)} />}
    </>
  );
}
