import DeleteOutline from '@mui/icons-material/DeleteOutline';
import EditOutlined from '@mui/icons-material/EditOutlined';
import MailOutline from '@mui/icons-material/MailOutline';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import Button from '@mui/material/Button';
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
  type ParticipantRow,
  type ParticipantSort,
  STUDY_DETAIL_TEXTS,
  STUDY_PARTICIPANT_TEXTS,
  type Study,
} from '@research/contracts';
import { useState } from 'react';
import { LoadingIndicator } from '../../../components/loading-indicator';
import { useDeleteParticipant } from '../api/delete-participant';
import { useParticipants } from '../api/get-participants';
import { useUpdateParticipant } from '../api/update-participant';
import { ConfirmDialog } from './confirm-dialog';
import { EditParticipantDialog, type EditParticipantValues } from './edit-participant-dialog';
import { EmptyPanel, LoadFailedPanel } from './empty-panel';
import { messageOf, type Notify } from './notify';
import { ParticipantDetailsDialog } from './participant-details-dialog';
import { type Column, ServerTable, useListState } from './server-table';

/** Chip colours: active success, inactive warning, enrolled info. */
export function participantStatusColor(status: string): 'success' | 'warning' | 'info' | 'default' {
  if (status === 'active') return 'success';
  if (status === 'inactive') return 'warning';
  if (status === 'enrolled') return 'info';
  return 'default';
}

export const participantName = (p: Pick<ParticipantRow, 'firstName' | 'lastName'>) =>
  [p.firstName, p.lastName].filter(Boolean).join(' ');

const c = STUDY_PARTICIPANT_TEXTS.columns;
const COLUMNS: readonly Column<ParticipantSort>[] = [
  { label: c.name, sortKey: 'name' },
  { label: c.email, sortKey: 'email' },
  { label: c.phone, sortKey: 'phone' },
  { label: c.status, sortKey: 'status' },
  { label: c.enrolledAt, sortKey: 'enrolledAt' },
  { label: c.actions, align: 'right' },
];

export interface ParticipantsTabProps {
  study: Study;
  signedIn: boolean;
  notify: Notify;
  onInvite: () => void;
}

/** Tab 0: enrolled participants, one server page at a time, sortable and searchable. */
export function ParticipantsTab({ study, signedIn, notify, onInvite }: ParticipantsTabProps) {
  const list = useListState<ParticipantSort>('enrolledAt', 'desc');
  const participants = useParticipants(study.id, list.query);
  const updateParticipant = useUpdateParticipant();
  const deleteParticipant = useDeleteParticipant();
  const [viewing, setViewing] = useState<ParticipantRow | null>(null);
  const [editing, setEditing] = useState<ParticipantRow | null>(null);
  const [deleting, setDeleting] = useState<ParticipantRow | null>(null);
  const isOwner = study.role === 'main';

  if (participants.isPending) return <LoadingIndicator />;
  if (participants.isError && !participants.data) {
    return <LoadFailedPanel error={participants.error} onRetry={() => participants.refetch()} />;
  }
  const { participants: rows, totalCount } = participants.data;
  if (totalCount === 0 && list.query.search === '' && list.searchInput === '') {
    return (
      <EmptyPanel
        title={STUDY_DETAIL_TEXTS.noParticipants}
        body={STUDY_PARTICIPANT_TEXTS.emptyBody}
        action={
          <Button variant="contained" startIcon={<MailOutline />} onClick={onInvite}>
            {STUDY_DETAIL_TEXTS.sendInvitations}
          </Button>
        }
      />
    );
  }

  const submitEdit = async (row: ParticipantRow, values: EditParticipantValues) => {
    if (!signedIn) {
      notify(
        'error',
        NOTIFICATION_TITLES.authenticationError,
        PARTICIPANT_MESSAGES.authRequiredToEdit,
      );
      return;
    }
    try {
      await updateParticipant.mutateAsync({
        studyId: study.id,
        participantId: row.participantId,
        changes: { ...values, studyCode: study.studyCode },
      });
      setEditing(null);
      notify('success', PARTICIPANT_MESSAGES.updatedTitle, STUDY_PARTICIPANT_TEXTS.updated);
    } catch (error) {
      notify(
        'error',
        PARTICIPANT_MESSAGES.updateFailedTitle,
        messageOf(error, STUDY_PARTICIPANT_TEXTS.updateFailed),
      );
    }
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    const row = deleting;
    setDeleting(null);
    if (!signedIn) {
      notify(
        'error',
        NOTIFICATION_TITLES.authenticationError,
        PARTICIPANT_MESSAGES.authRequiredToDelete,
      );
      return;
    }
    try {
      await deleteParticipant.mutateAsync({ studyId: study.id, participantId: row.participantId });
      notify(
        'success',
        PARTICIPANT_MESSAGES.deletedTitle,
        STUDY_PARTICIPANT_TEXTS.deleted(participantName(row) || row.participantEmail),
      );
    } catch (error) {
      notify(
        'error',
        PARTICIPANT_MESSAGES.deleteFailedTitle,
        messageOf(error, STUDY_PARTICIPANT_TEXTS.deleteFailed),
      );
    }
  };

  return (
    <>
      <ServerTable
        label={STUDY_PARTICIPANT_TEXTS.tableLabel}
        columns={COLUMNS}
        state={list}
        totalCount={totalCount}
        fetching={participants.isFetching}
        searchPlaceholder={STUDY_PARTICIPANT_TEXTS.searchPlaceholder}
        noMatches={STUDY_PARTICIPANT_TEXTS.noMatches}
        rowCount={rows.length}
        minWidth={860}
      >
        {rows.map((row) => {
          const name = participantName(row) || row.participantEmail;
          // The active/inactive status: the same expression `sort=status` orders by.
          const status = row.displayStatus;
          return (
            <TableRow key={row.id} hover>
              <TableCell sx={{ overflowWrap: 'anywhere' }}>
                {participantName(row) || STUDY_DETAIL_TEXTS.emptyCell}
              </TableCell>
              <TableCell sx={{ overflowWrap: 'anywhere' }}>{row.participantEmail}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                {row.phoneNumber ? displayPhone(row.phoneNumber) : STUDY_DETAIL_TEXTS.notProvided}
              </TableCell>
              <TableCell>
                <Chip size="small" label={status} color={participantStatusColor(status)} />
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateShort(row.enrolledAt)}</TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                <Tooltip title={STUDY_PARTICIPANT_TEXTS.view(name)}>
                  <IconButton
                    size="small"
                    aria-label={STUDY_PARTICIPANT_TEXTS.view(name)}
                    onClick={() => setViewing(row)}
                  >
                    <VisibilityOutlined fontSize="small" />
                  </IconButton>
                </Tooltip>
                <Tooltip title={STUDY_PARTICIPANT_TEXTS.edit(name)}>
                  <IconButton
                    size="small"
                    aria-label={STUDY_PARTICIPANT_TEXTS.edit(name)}
                    onClick={() => setEditing(row)}
                  >
                    <EditOutlined fontSize="small" />
                  </IconButton>
                </Tooltip>
                <Tooltip
                  title={
                    isOwner
                      ? STUDY_PARTICIPANT_TEXTS.delete(name)
                      : STUDY_PARTICIPANT_TEXTS.deleteOwnerOnly
                  }
                >
                  {/* A disabled button fires no events; the span keeps the tooltip working. */}
                  <span>
                    <IconButton
                      size="small"
                      color="error"
                      aria-label={STUDY_PARTICIPANT_TEXTS.delete(name)}
                      disabled={!isOwner}
                      onClick={() => setDeleting(row)}
                    >
                      <DeleteOutline fontSize="small" />
                    </IconButton>
                  </span>
                </Tooltip>
              </TableCell>
            </TableRow>
          );
        })}
      </ServerTable>
      <ParticipantDetailsDialog
        studyId={study.id}
        participant={viewing}
        signedIn={signedIn}
        notify={notify}
        onClose={() => setViewing(null)}
      />
      <EditParticipantDialog
        participant={editing}
        busy={updateParticipant.isPending}
        onClose={() => setEditing(null)}
        onSubmit={submitEdit}
      />
      <ConfirmDialog
        open={deleting !== null}
        title={STUDY_PARTICIPANT_TEXTS.deleteTitle}
        body={STUDY_PARTICIPANT_TEXTS.deleteBody(
          deleting ? participantName(deleting) || deleting.participantEmail : '',
        )}
        confirmLabel={STUDY_PARTICIPANT_TEXTS.deleteConfirm}
        busy={deleteParticipant.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={confirmDelete}
      />
    </>
  );
}
