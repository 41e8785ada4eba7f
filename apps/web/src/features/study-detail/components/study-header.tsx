import ArrowBack from '@mui/icons-material/ArrowBack';
import ContentCopy from '@mui/icons-material/ContentCopy';
import Edit from '@mui/icons-material/Edit';
import GroupAdd from '@mui/icons-material/GroupAdd';
import MailOutline from '@mui/icons-material/MailOutline';
import Policy from '@mui/icons-material/Policy';
import Refresh from '@mui/icons-material/Refresh';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { AUDIT_TEXTS, STUDY_DETAIL_TEXTS, STUDY_MESSAGES, type Study } from '@research/contracts';
import { Link as RouterLink } from 'react-router';

export interface StudyHeaderProps {
  study: Study;
  refreshing: boolean;
  onBack: () => void;
  onCopyCode: () => void;
  onEdit: () => void;
  onRefresh: () => void;
  onInviteParticipants: () => void;
  onInviteCollaborators: () => void;
}

/** Header: back, name, status chip, description, code with copy, duration, actions. */
export function StudyHeader({
  study,
  refreshing,
  onBack,
  onCopyCode,
  onEdit,
  onRefresh,
  onInviteParticipants,
  onInviteCollaborators,
}: StudyHeaderProps) {
  const isOwner = study.role === 'main';
  const description = study.description?.trim();
  const editButton = (
    <Button variant="outlined" startIcon={<Edit />} onClick={onEdit} disabled={!isOwner}>
      {STUDY_DETAIL_TEXTS.edit}
    </Button>
  );
  return (
    <Box component="header" sx={{ mb: 3 }}>
      <Button startIcon={<ArrowBack />} onClick={onBack} sx={{ mb: 2, ml: -1 }}>
        {STUDY_DETAIL_TEXTS.backToDashboard}
      </Button>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap', mb: 1 }}>
          <Typography
            variant="h4"
            component="h1"
            sx={{ fontSize: { xs: '1.5rem', md: '2rem' }, overflowWrap: 'anywhere', minWidth: 0 }}
          >
            {study.name}
          </Typography>
          <Chip
            size="small"
            label={study.status}
            color={study.status === 'active' ? 'success' : 'default'}
          />
        </Box>
        <Typography
          color="text.secondary"
          sx={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere', mb: 2 }}
        >
          {description || STUDY_MESSAGES.noDescription}
        </Typography>
        <Box
          sx={{
            display: 'flex',
            flexWrap: 'wrap',
            alignItems: 'center',
            columnGap: 3,
            rowGap: 1,
            mb: 2,
          }}
        >
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
            <Typography variant="body2" color="text.secondary">
              {STUDY_DETAIL_TEXTS.codeLabel}
            </Typography>
            <Typography
              variant="body2"
              sx={{ fontFamily: 'monospace', fontWeight: 700, letterSpacing: '0.08em' }}
              data-testid="study-code"
            >
              {study.studyCode}
            </Typography>
            <Tooltip title={STUDY_DETAIL_TEXTS.copyCode}>
              <IconButton
                size="small"
                aria-label={STUDY_DETAIL_TEXTS.copyCode}
                onClick={onCopyCode}
              >
                <ContentCopy fontSize="small" />
              </IconButton>
            </Tooltip>
          </Box>
          {study.duration?.trim() && (
            <Typography variant="body2" color="text.secondary">
              {STUDY_DETAIL_TEXTS.durationLabel}{' '}
              <Box component="span" sx={{ color: 'text.primary' }}>
                {study.duration}
              </Box>
            </Typography>
          )}
        </Box>
        <Box
          sx={{
            display: 'flex',
            flexWrap: 'wrap',
            gap: 1,
            '& > *': { flex: { xs: '1 1 auto', md: 'none' } },
          }}
        >
          {isOwner ? (
            editButton
          ) : (
            <Tooltip title={STUDY_DETAIL_TEXTS.editOwnerOnly}>
              <Box component="span" sx={{ display: 'inline-flex', '& > *': { flex: 1 } }}>
                {editButton}
              </Box>
            </Tooltip>
          )}
          <Button
            variant="outlined"
            startIcon={<Refresh />}
            onClick={onRefresh}
            disabled={refreshing}
          >
            {STUDY_DETAIL_TEXTS.refresh}
          </Button>
          {isOwner && (
            <Button
              variant="outlined"
              component={RouterLink}
              to={`/researcher/study/${study.id}/audit`}
              startIcon={<Policy />}
            >
              {AUDIT_TEXTS.studyTab}
            </Button>
          )}
          <Button variant="contained" startIcon={<MailOutline />} onClick={onInviteParticipants}>
            {STUDY_DETAIL_TEXTS.inviteParticipants}
          </Button>
          <Button
            variant="contained"
            color="secondary"
            startIcon={<GroupAdd />}
            onClick={onInviteCollaborators}
          >
            {STUDY_DETAIL_TEXTS.inviteCollaborators}
          </Button>
        </Box>
      </Paper>
    </Box>
  );
}
