import DeleteOutline from '@mui/icons-material/DeleteOutline';
import EditOutlined from '@mui/icons-material/EditOutlined';
import {
  PARTICIPANT_MESSAGES,
  type PendingParticipant,
  type PendingSort,
  STUDY_DETAIL_TEXTS,
  STUDY_PENDING_TEXTS,
  type Study,
} from '@research/contracts';
import { useState } from 'react';
import { useDeletePendingParticipant } from '../api/delete-pending-participant';
import { usePendingParticipants } from '../api/get-pending-participants';
import { useUpdatePendingParticipant } from '../api/update-pending-participant';
import { ConfirmDialog } from './confirm-dialog';
import { EditPendingDialog } from './edit-pending-dialog';
import { EmptyPanel } from './empty-panel';
import { type Notify, notifyOutcome, requireSession } from './notify';
import { RosterList, rosterColumns } from './roster-list';
import { RowAction } from './row-action';
import { type Column, useListState } from './server-table';

/** 'pre-enrolled' and 'invited' are the known states; anything else is an error. */
export function pendingStatusColor(status: string): 'info' | 'secondary' | 'error' {
  if (status === 'pre-enrolled') return 'info';
  if (status === 'invited') return 'secondary';
  return 'error';
}

const c = STUDY_PENDING_TEXTS.columns;

function columns(
  onEdit: (row: PendingParticipant) => void,
  onRemove: (row: PendingParticipant) => void,
): readonly Column<PendingParticipant, PendingSort>[] {
  return [
    { ...rosterColumns.email(c.email, 'email', (row) => row.email), card: 'title' },
    rosterColumns.phone(c.phone, 'phone', (row) => row.phoneNumber),
    rosterColumns.status(c.status, 'status', (row) => row.status, pendingStatusColor),
    rosterColumns.date(c.createdAt, 'createdAt', (row) => row.createdAt),
    rosterColumns.actions(c.actions, (row) => (
      <>
        <RowAction
          label={STUDY_PENDING_TEXTS.edit(row.email)}
          icon={<EditOutlined fontSize="small" />}
          onClick={() => onEdit(row)}
        />
        <RowAction
          label={STUDY_PENDING_TEXTS.remove(row.email)}
          icon={<DeleteOutline fontSize="small" />}
          color="error"
          onClick={() => onRemove(row)}
        />
      </>
    )),
  ];
}

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

  const submitEdit = async (row: PendingParticipant | null, phone: string) => {
    if (!requireSession(signedIn, notify, PARTICIPANT_MESSAGES.authRequiredToEdit)) return;
    if (!row) return;
    await notifyOutcome(
      notify,
      async () => {
        await updatePending.mutateAsync({
          studyId: study.id,
          pendingId: row.id,
          changes: { phoneNumber: phone.trim() === '' ? null : phone.trim() },
        });
        setEditOpen(false);
      },
      [PARTICIPANT_MESSAGES.updatedTitle, STUDY_PENDING_TEXTS.updated],
      [PARTICIPANT_MESSAGES.updateFailedTitle, STUDY_PENDING_TEXTS.updateFailed],
    );
  };

  const confirmRemove = async () => {
    if (!removing) return;
    const row = removing;
    setRemoving(null);
    await notifyOutcome(
      notify,
      () => deletePending.mutateAsync({ studyId: study.id, pendingId: row.id }),
      [PARTICIPANT_MESSAGES.removedTitle, STUDY_PENDING_TEXTS.removed(row.email)],
      [PARTICIPANT_MESSAGES.removeFailedTitle, STUDY_PENDING_TEXTS.removeFailed],
    );
  };

  return (
    <RosterList
      query={pending}
      list={list}
      rowsOf={(data) => data.pendingParticipants}
      rowKey={(row) => row.id}
      label={STUDY_PENDING_TEXTS.tableLabel}
      columns={columns((row) => {
        setEditing(row);
        setEditOpen(true);
      }, setRemoving)}
      searchPlaceholder={STUDY_PENDING_TEXTS.searchPlaceholder}
      noMatches={STUDY_PENDING_TEXTS.noMatches}
      minWidth={720}
      empty={
        <EmptyPanel
          title={STUDY_DETAIL_TEXTS.noPendingParticipants}
          body={STUDY_PENDING_TEXTS.emptyBody}
        />
      }
    >
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
    </RosterList>
  );
}
