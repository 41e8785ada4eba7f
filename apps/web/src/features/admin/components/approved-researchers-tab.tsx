import ArticleOutlined from '@mui/icons-material/ArticleOutlined';
import IconButton from '@mui/material/IconButton';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { ADMIN_MESSAGES, ADMIN_TEXTS, formatDateShort, type Researcher } from '@research/contracts';
import { useState } from 'react';
import { LoadingIndicator } from '../../../components/loading-indicator';
import { ADMIN_PAGE_SIZE } from '../api/admin-keys';
import { useResearchers } from '../api/get-researchers';
import { EmptyState, FailureAlert, fullName, PersonCell, RowCard, StatusChip } from './admin-ui';
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

  const actionOf = (researcher: Researcher) => (
    <Tooltip title={ADMIN_TEXTS.actions.viewApplication}>
      <IconButton
        aria-label={`${ADMIN_TEXTS.actions.viewApplication}: ${fullName(researcher)}`}
        onClick={() => setOpen(researcher)}
      >
        <ArticleOutlined />
      </IconButton>
    </Tooltip>
  );

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
          cards={researchers.map((researcher) => (
            <RowCard
              key={researcher.id}
              name={fullName(researcher)}
              email={researcher.email}
              status={researcher.status}
              lines={[
                {
                  label: c.institution,
                  value: [researcher.institution, researcher.department]
                    .filter(Boolean)
                    .join(' · '),
                },
                { label: c.researchArea, value: researcher.researchArea },
                { label: c.approved, value: formatDateShort(researcher.approvedAt) },
                {
                  label: c.lastLogin,
                  value: formatDateShort(researcher.lastLoginAt) || ADMIN_TEXTS.never,
                },
              ]}
              actions={actionOf(researcher)}
            />
          ))}
        >
          {researchers.map((researcher) => (
            <TableRow key={researcher.id} hover>
              <TableCell>
                <PersonCell name={fullName(researcher)} email={researcher.email} />
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
              <TableCell>{actionOf(researcher)}</TableCell>
            </TableRow>
          ))}
        </PagedTable>
      )}
      {open && <ResearcherApplicationDialog researcher={open} onClose={() => setOpen(null)} />}
    </>
  );
}
