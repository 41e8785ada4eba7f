import DeleteOutline from '@mui/icons-material/DeleteOutline';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import {
  displayPhone,
  formatDateShort,
  NOTIFICATION_TITLES,
  PARTICIPANT_MESSAGES,
  type PendingParticipant,
  type PendingSort,
  STUDY_DETAIL_TEXTS,
  STUDY_PENDING_TEXTS,
  type Study,
} from '@research/contracts';
import { useState } from 'react';
import { LoadingIndicator } from '../../../components/loading-indicator';
import { useDeletePendingParticipant } from '../api/delete-pending-participant';
import { usePendingParticipants } from '../api/get-pending-participants';
import { useUpdatePendingParticipant } from '../api/update-pending-participant';
import { ConfirmDialog } from './confirm-dialog';
import { EditPendingDialog } from './edit-pending-dialog';
import { EmptyPanel, LoadFailedPanel } from './empty-panel';
import { messageOf, type Notify } from './notify';
import { type Column, ServerTable, useListState } from './server-table';

/** 'pre-enrolled' and 'invited' are the known states; anything else is an error. */
export function pendingStatusColor(status: string): 'info' | 'secondary' | 'error' {
  if (status === 'pre-enrolled') return 'info';
  if (status === 'invited') return 'secondary';
  return 'error';
}

const c = STUDY_PENDING_TEXTS.columns;
const COLUMNS: readonly Column<PendingSort>[] = [
  { label: c.email, sortKey: 'email' },
  { label: c.phone, sortKey: 'phone' },
  { label: c.status, sortKey: 'status' },
  { label: c.createdAt, sortKey: 'createdAt' },
  { label: c.actions, align: 'right' },
];

export interface PendingParticipantsTabProps {
  study: Study;
  signedIn: boolean;
  notify: Notify;
}

/** Tab 1: invited and pre-enrolled people who have not enrolled yet. */
export function PendingParticipantsTab({ study, signedIn, notify }: PendingParticipantsTabProps) {
  const list = useListState<PendingSort>('createdAt', 'desc');
  const pending = usePendingParticipants(study.id, list.query);
  const updatePending = useUpdatePendingParticipant();
  const deletePending = useDeletePendingParticipant();
  const [editing, setEditing] = useState<PendingParticipant | null>(null);
  const [editOpen, setEditOpen] = useState(false);
  const [removing, setRemoving] = useState<PendingParticipant | null>(null);

  if (pending.isPending) return <LoadingIndicator />;
  if (pending.isError && !pending.data) {
    return <LoadFailedPanel error={pending.error} onRetry={() => pending.refetch()} />;
  }
  const { pendingParticipants: rows, totalCount } = pending.data;
  if (totalCount === 0 && list.query.search === '' && list.searchInput === '') {
    return (
      <EmptyPanel
        title={STUDY_DETAIL_TEXTS.noPendingParticipants}
        body={STUDY_PENDING_TEXTS.emptyBody}
      />
    );
  }

  const submitEdit = async (row: PendingParticipant | null, phone: string) => {
    if (!signedIn) {
      notify(
        'error',
        NOTIFICATION_TITLES.authenticationError,
        PARTICIPANT_MESSAGES.authRequiredToEdit,
      );
      return;
    }
    if (!row) return;
    try {
      await updatePending.mutateAsync({
        studyId: study.id,
        pendingId: row.id,
        changes: { phoneNumber: phone.trim() === '' ? null : phone.trim() },
      });
      setEditOpen(false);
      notify('success', PARTICIPANT_MESSAGES.updatedTitle, STUDY_PENDING_TEXTS.updated);
    } catch (error) {
      notify(
        'error',
        PARTICIPANT_MESSAGES.updateFailedTitle,
        messageOf(error, STUDY_PENDING_TEXTS.updateFailed),
      );
    }
  };

  const confirmRemove = async () => {
    if (!removing) return;
    const row = removing;
    setRemoving(null);
    try {
      await deletePending.mutateAsync({ studyId: study.id, pendingId: row.id });
      notify('success', PARTICIPANT_MESSAGES.removedTitle, STUDY_PENDING_TEXTS.removed(row.email));
    } catch (error) {
      notify(
        'error',
        PARTICIPANT_MESSAGES.removeFailedTitle,
        messageOf(error, STUDY_PENDING_TEXTS.removeFailed),
      );
    }
  };

  return (
    <>
      <ServerTable
        label={STUDY_PENDING_TEXTS.tableLabel}
        columns={COLUMNS}
        state={list}
        totalCount={totalCount}
        fetching={pending.isFetching}
        searchPlaceholder={STUDY_PENDING_TEXTS.searchPlaceholder}
        noMatches={STUDY_PENDING_TEXTS.noMatches}
        rowCount={rows.length}
        minWidth={720}
      >
        {rows.map((row) => (
          <TableRow key={row.id} hover>
            <TableCell sx={{ overflowWrap: 'anywhere' }}>{row.email}</TableCell>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>
              {row.phoneNumber ? displayPhone(row.phoneNumber) : STUDY_DETAIL_TEXTS.notProvided}
            </TableCell>
            <TableCell>
              <Chip size="small" label={row.status} color={pendingStatusColor(row.status)} />
            </TableCell>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateShort(row.createdAt)}</TableCell>
            <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
              <Tooltip title={STUDY_PENDING_TEXTS.edit(row.email)}>
                <IconButton
                  size="small"
                  aria-label={STUDY_PENDING_TEXTS.edit(row.email)}
                  onClick={() => {
                    setEditing(row);
                    setEditOpen(true);
                  }}
                >
                  <EditOutlined fontSize="small" />
                </IconButton>
              </Tooltip>
              <Tooltip title={STUDY_PENDING_TEXTS.remove(row.email)}>
                <IconButton
                  size="small"
                  color="error"
                  aria-label={STUDY_PENDING_TEXTS.remove(row.email)}
                  onClick={() => setRemoving(row)}
                >
                  <DeleteOutline fontSize="small" />
                </IconButton>
              </Tooltip>
            </TableCell>
          </TableRow>
        ))}
      </ServerTable>
      <EditPendingDialog
        open={editOpen}
        participant={editing}
        busy={updatePending.isPending}
        onClose={() => setEditOpen(false)}
        onSubmit={submitEdit}
      />
      <ConfirmDialog
        open={removing !== null}
        title={STUDY_PENDING_TEXTS.removeTitle}
        body={STUDY_PENDING_TEXTS.removeBody(removing?.email ?? '')}
        confirmLabel={STUDY_PENDING_TEXTS.removeConfirm}
        busy={deletePending.isPending}
        onClose={() => setRemoving(null)}
        onConfirm={confirmRemove}
      />
    </>
  );
}
