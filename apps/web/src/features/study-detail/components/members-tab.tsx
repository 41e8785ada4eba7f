import PersonRemove from '@mui/icons-material/PersonRemove';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import {
  displayPhone,
  formatDateShort,
  STUDY_DETAIL_TEXTS,
  STUDY_MEMBER_TEXTS,
  type Study,
  type StudyMember,
} from '@research/contracts';
import { useState } from 'react';
import { LoadingIndicator } from '../../../components/loading-indicator';
import { useMembers } from '../api/get-members';
import { useRemoveMember } from '../api/remove-member';
import { ConfirmDialog } from './confirm-dialog';
import { EmptyPanel, LoadFailedPanel } from './empty-panel';
import { messageOf, type Notify } from './notify';
import { RowAction } from './row-action';

export interface MembersTabProps {
  study: Study;
  notify: Notify;
}

/** Tab 2: the 'Main Researcher' table and, when there are any, the collaborators' table. */
export function MembersTab({ study, notify }: MembersTabProps) {
  const members = useMembers(study.id);
  const removeMember = useRemoveMember();
  const [removing, setRemoving] = useState<StudyMember | null>(null);
  const isOwner = study.role === 'main';

  if (members.isPending) return <LoadingIndicator />;
  if (members.isError) {
    return <LoadFailedPanel error={members.error} onRetry={() => members.refetch()} />;
  }
  const main = members.data.filter((member) => member.role === 'main');
  const collaborators = members.data.filter((member) => member.role !== 'main');
  if (members.data.length === 0) return <EmptyPanel title={STUDY_DETAIL_TEXTS.noStudyMembers} />;

  const confirmRemove = async () => {
    if (!removing) return;
    const name = removing.name || removing.email;
    try {
      await removeMember.mutateAsync({ studyId: study.id, userId: removing.id });
      setRemoving(null);
      notify('success', STUDY_MEMBER_TEXTS.removedTitle, STUDY_MEMBER_TEXTS.removed(name));
    } catch (error) {
      setRemoving(null);
      notify(
        'error',
        STUDY_MEMBER_TEXTS.removeFailedTitle,
        messageOf(error, STUDY_MEMBER_TEXTS.removeFailed),
      );
    }
  };

  return (
    <Box sx={{ p: { xs: 2, sm: 3 }, display: 'flex', flexDirection: 'column', gap: 3 }}>
      <MemberTable title={STUDY_DETAIL_TEXTS.mainResearcher} members={main} />
      {collaborators.length > 0 && (
        <MemberTable
          title={STUDY_DETAIL_TEXTS.collaborativeResearchers(collaborators.length)}
          members={collaborators}
          onRemove={isOwner ? setRemoving : undefined}
        />
      )}
      <ConfirmDialog
        open={removing !== null}
        title={STUDY_MEMBER_TEXTS.removeTitle}
        body={STUDY_MEMBER_TEXTS.removeBody(removing?.name || removing?.email || '')}
        confirmLabel={STUDY_MEMBER_TEXTS.removeConfirm}
        busy={removeMember.isPending}
        onClose={() => setRemoving(null)}
        onConfirm={confirmRemove}
      />
    </Box>
  );
}

function MemberTable({
  title,
  members,
  onRemove,
}: {
  title: string;
  members: StudyMember[];
  onRemove?: (member: StudyMember) => void;
}) {
  const c = STUDY_MEMBER_TEXTS.columns;
  const headers: string[] = [c.name, c.email, c.phone, c.status, c.joinedDate, c.role];
  if (onRemove) headers.push(c.actions);
  return (
    <Box component="section" aria-label={title}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {/* Wider than a phone: it scrolls sideways, so it takes the focus for the keyboard. */}
      <TableContainer
        tabIndex={0}
        role="group"
        aria-label={title}
        sx={{ overflowX: 'auto', border: 1, borderColor: 'divider', borderRadius: 2 }}
      >
        <Table size="small" aria-label={title} sx={{ minWidth: 720 }}>
          <TableHead>
            <TableRow>
              {headers.map((header) => (
                <TableCell key={header} sx={{ fontWeight: 700, whiteSpace: 'nowrap' }}>
                  {header}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {members.map((member) => (
              <TableRow key={member.id}>
                <TableCell sx={{ overflowWrap: 'anywhere' }}>{member.name}</TableCell>
                <TableCell sx={{ overflowWrap: 'anywhere' }}>{member.email}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {member.phone ? displayPhone(member.phone) : STUDY_DETAIL_TEXTS.notProvided}
                </TableCell>
                <TableCell>
                  <Chip
                    size="small"
                    label={member.status}
                    color={member.status === 'active' ? 'success' : 'warning'}
                  />
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {formatDateShort(member.joinedDate) || STUDY_DETAIL_TEXTS.notAvailable}
                </TableCell>
                <TableCell>
                  <Chip
                    size="small"
                    variant="outlined"
                    color={member.role === 'main' ? 'primary' : 'secondary'}
                    label={
                      member.role === 'main'
                        ? STUDY_DETAIL_TEXTS.roleMain
                        : STUDY_DETAIL_TEXTS.roleCollaborator
                    }
                  />
                </TableCell>
                {onRemove && (
                  <TableCell>
                    <RowAction
                      label={STUDY_MEMBER_TEXTS.remove(member.name || member.email)}
                      icon={<PersonRemove fontSize="small" />}
                      color="error"
                      onClick={() => onRemove(member)}
                    />
                  </TableCell>
                )}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </Box>
  );
}
