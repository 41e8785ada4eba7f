import DeleteOutline from '@mui/icons-material/DeleteOutline';
import EditOutlined from '@mui/icons-material/EditOutlined';
import LogoutOutlined from '@mui/icons-material/LogoutOutlined';
import MailOutline from '@mui/icons-material/MailOutline';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import {
  CONSENT_MESSAGES,
  CONSENT_STATE_LABELS,
  CONSENT_TAB_TEXTS,
  CONSENT_WITHDRAW_TEXTS,
  DEVICE_SYNC_TEXTS,
  PARTICIPANT_MESSAGES,
  type ParticipantRow,
  type ParticipantSort,
  STUDY_DETAIL_TEXTS,
  STUDY_PARTICIPANT_TEXTS,
  type Study,
} from '@research/contracts';
import { useState } from 'react';
import { LastSynced, LatestDay } from '../../../components/device-sync-cells';
import { useConsentSignatures, useRecordWithdrawal } from '../../../lib/consent/consent-api';
import { useDeleteParticipant } from '../api/delete-participant';
import { useParticipants } from '../api/get-participants';
import { useUpdateParticipant } from '../api/update-participant';
import { ConfirmDialog } from './confirm-dialog';
import { EditParticipantDialog, type EditParticipantValues } from './edit-participant-dialog';
import { EmptyPanel } from './empty-panel';
import { type Notify, notifyOutcome, requireSession } from './notify';
import { ParticipantDetailsDialog } from './participant-details-dialog';
import { RosterList, rosterColumns } from './roster-list';
import { RowAction } from './row-action';
import { type Column, useListState } from './server-table';

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

/** The row's buttons: view, edit and (for the study's owner) delete. */
interface RowHandlers {
  isOwner: boolean;
  /** Participants held back for consent: pending or withdrawn. */
  heldBack: ReadonlyMap<string, 'pending' | 'withdrawn'>;
  onView: (row: ParticipantRow) => void;
  onEdit: (row: ParticipantRow) => void;
  onDelete: (row: ParticipantRow) => void;
  onWithdraw: (row: ParticipantRow) => void;
}

function columns(handlers: RowHandlers): readonly Column<ParticipantRow, ParticipantSort>[] {
  return [
    {
      label: c.name,
      sortKey: 'name',
      card: 'title',
      render: (row) => participantName(row) || STUDY_DETAIL_TEXTS.emptyCell,
      cellSx: { overflowWrap: 'anywhere' },
    },
    rosterColumns.email(c.email, 'email', (row) => row.participantEmail),
    rosterColumns.phone(c.phone, 'phone', (row) => row.phoneNumber),
    // The active/inactive status: the same expression `sort=status` orders by.
    rosterColumns.status(c.status, 'status', (row) => row.displayStatus, participantStatusColor),
    {
      label: CONSENT_TAB_TEXTS.tab,
      render: (row) => <ConsentState state={handlers.heldBack.get(row.participantId)} />,
    },
    rosterColumns.date(c.enrolledAt, 'enrolledAt', (row) => row.enrolledAt),
    {
      label: DEVICE_SYNC_TEXTS.lastSynced,
      render: (row) => <LastSynced at={row.lastDeviceSyncAt} />,
      cellSx: { whiteSpace: 'nowrap' },
    },
    {
      label: DEVICE_SYNC_TEXTS.latestDay,
      render: (row) => <LatestDay day={row.latestDay} />,
    },
    rosterColumns.actions(c.actions, (row) => <ParticipantActions row={row} {...handlers} />),
  ];
}

/** 'Consent pending' or 'Withdrawn' where the participant's data is held back; else a dash. */
function ConsentState({ state }: { state: 'pending' | 'withdrawn' | undefined }) {
  if (!state) return <>{STUDY_DETAIL_TEXTS.emptyCell}</>;
  return (
    <Chip
      size="small"
      color={state === 'pending' ? 'warning' : 'default'}
      label={state === 'pending' ? CONSENT_STATE_LABELS.pending : CONSENT_STATE_LABELS.withdrawn}
      title={
        state === 'pending' ? CONSENT_STATE_LABELS.pendingHelp : CONSENT_STATE_LABELS.withdrawnHelp
      }
    />
  );
}

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
  const consent = useConsentSignatures(study.id);
  const heldBack = new Map(
    (consent.data?.heldBack ?? []).map((h) => [h.participantId, h.state] as const),
  );
  const updateParticipant = useUpdateParticipant();
  const deleteParticipant = useDeleteParticipant();
  const [viewing, setViewing] = useState<ParticipantRow | null>(null);
  const [editing, setEditing] = useState<ParticipantRow | null>(null);
  const [deleting, setDeleting] = useState<ParticipantRow | null>(null);
  const [withdrawing, setWithdrawing] = useState<ParticipantRow | null>(null);
  const recordWithdrawal = useRecordWithdrawal(study.id);

  const confirmWithdrawal = async () => {
    const row = withdrawing;
    if (!row) return;
    if (!requireSession(signedIn, notify, PARTICIPANT_MESSAGES.authRequiredToEdit)) return;
    await notifyOutcome(
      notify,
      async () => {
        await recordWithdrawal.mutateAsync(row.participantId);
        setWithdrawing(null);
      },
      [CONSENT_WITHDRAW_TEXTS.title, CONSENT_MESSAGES.withdrawalRecorded],
      [CONSENT_WITHDRAW_TEXTS.title, CONSENT_TAB_TEXTS.failed],
    );
  };

  const submitEdit = async (row: ParticipantRow, values: EditParticipantValues) => {
    if (!requireSession(signedIn, notify, PARTICIPANT_MESSAGES.authRequiredToEdit)) return;
    await notifyOutcome(
      notify,
      async () => {
        await updateParticipant.mutateAsync({
          studyId: study.id,
          participantId: row.participantId,
          changes: { ...values, studyCode: study.studyCode },
        });
        setEditing(null);
      },
      [PARTICIPANT_MESSAGES.updatedTitle, STUDY_PARTICIPANT_TEXTS.updated],
      [PARTICIPANT_MESSAGES.updateFailedTitle, STUDY_PARTICIPANT_TEXTS.updateFailed],
    );
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    const row = deleting;
    setDeleting(null);
    if (!requireSession(signedIn, notify, PARTICIPANT_MESSAGES.authRequiredToDelete)) return;
    await notifyOutcome(
      notify,
      () => deleteParticipant.mutateAsync({ studyId: study.id, participantId: row.participantId }),
      [
        PARTICIPANT_MESSAGES.deletedTitle,
        STUDY_PARTICIPANT_TEXTS.deleted(participantName(row) || row.participantEmail),
      ],
      [PARTICIPANT_MESSAGES.deleteFailedTitle, STUDY_PARTICIPANT_TEXTS.deleteFailed],
    );
  };

  return (
    <RosterList
      query={participants}
      list={list}
      rowsOf={(data) => data.participants}
      rowKey={(row) => row.id}
      label={STUDY_PARTICIPANT_TEXTS.tableLabel}
      columns={columns({
        isOwner: study.role === 'main',
        heldBack,
        onWithdraw: setWithdrawing,
        onView: setViewing,
        onEdit: setEditing,
        onDelete: setDeleting,
      })}
      searchPlaceholder={STUDY_PARTICIPANT_TEXTS.searchPlaceholder}
      noMatches={STUDY_PARTICIPANT_TEXTS.noMatches}
      minWidth={860}
      empty={
        <EmptyPanel
          title={STUDY_DETAIL_TEXTS.noParticipants}
          body={STUDY_PARTICIPANT_TEXTS.emptyBody}
          action={
            <Button variant="contained" startIcon={<MailOutline />} onClick={onInvite}>
              {STUDY_DETAIL_TEXTS.sendInvitations}
            </Button>
          }
        />
      }
    >
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
      <ConfirmDialog
        open={withdrawing !== null}
        title={CONSENT_WITHDRAW_TEXTS.title}
        body={CONSENT_WITHDRAW_TEXTS.body(study.settings.withdrawalData !== 'delete')}
        confirmLabel={CONSENT_WITHDRAW_TEXTS.confirm}
        busy={recordWithdrawal.isPending}
        onClose={() => setWithdrawing(null)}
        onConfirm={confirmWithdrawal}
      />
    </RosterList>
  );
}

function ParticipantActions({
  row,
  isOwner,
  onView,
  onEdit,
  onDelete,
  onWithdraw,
  heldBack,
}: RowHandlers & { row: ParticipantRow }) {
  const name = participantName(row) || row.participantEmail;
  return (
    <>
      <RowAction
        label={STUDY_PARTICIPANT_TEXTS.view(name)}
        icon={<VisibilityOutlined fontSize="small" />}
        onClick={() => onView(row)}
      />
      <RowAction
        label={STUDY_PARTICIPANT_TEXTS.edit(name)}
        icon={<EditOutlined fontSize="small" />}
        onClick={() => onEdit(row)}
      />
      <RowAction
        label={`${CONSENT_WITHDRAW_TEXTS.action}: ${name}`}
        icon={<LogoutOutlined fontSize="small" />}
        disabled={heldBack.get(row.participantId) === 'withdrawn'}
        onClick={() => onWithdraw(row)}
      />
      <RowAction
        label={STUDY_PARTICIPANT_TEXTS.delete(name)}
        tooltip={
          isOwner ? STUDY_PARTICIPANT_TEXTS.delete(name) : STUDY_PARTICIPANT_TEXTS.deleteOwnerOnly
        }
        icon={<DeleteOutline fontSize="small" />}
        color="error"
        disabled={!isOwner}
        onClick={() => onDelete(row)}
      />
    </>
  );
}
