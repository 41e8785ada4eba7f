import CalendarToday from '@mui/icons-material/CalendarToday';
import ContentCopy from '@mui/icons-material/ContentCopy';
import Edit from '@mui/icons-material/Edit';
import MoreVert from '@mui/icons-material/MoreVert';
import People from '@mui/icons-material/People';
import Visibility from '@mui/icons-material/Visibility';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import {
  DELETE_STUDY_TEXTS,
  EDIT_STUDY_TEXTS,
  formatDateShort,
  STUDY_DASHBOARD_TEXTS,
  STUDY_MESSAGES,
  type Study,
} from '@research/contracts';
import { type MouseEvent, useId, useState } from 'react';
import { clampStudyName, descriptionPreview } from '../utils/study-text';

export interface StudyCardProps {
  study: Study;
  /** Owned cards get 'Edit Study' and the menu with 'Delete Study'; collaborative ones do not. */
  owned: boolean;
  onOpen: (study: Study) => void;
  onCopyCode: (study: Study) => void;
  onEdit?: (study: Study) => void;
  onDelete?: (study: Study) => void;
}

/** Stops a click on a control inside the card from also opening the study. */
const inside = (handler: () => void) => (event: MouseEvent) => {
  event.stopPropagation();
  handler();
};

export function StudyCard({ study, owned, onOpen, onCopyCode, onEdit, onDelete }: StudyCardProps) {
  const menuId = useId();
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const nameLines = clampStudyName(study.name);
  const preview = descriptionPreview(study.description);
  const active = study.status === 'active';

  return (
    <Card
      component="article"
      // The full name, where the heading may show a clamped one.
      aria-label={study.name}
      variant="outlined"
      onClick={() => onOpen(study)}
      sx={{
        height: '100%',
        display: 'flex',
        flexDirection: 'column',
        cursor: 'pointer',
        transition: 'box-shadow 150ms, border-color 150ms',
        '&:hover': { boxShadow: 4, borderColor: 'primary.light' },
      }}
    >
      <CardContent sx={{ flexGrow: 1, display: 'flex', flexDirection: 'column', gap: 1.5 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minHeight: 28 }}>
          <Chip
            label={study.status}
            size="small"
            color={active ? 'success' : 'default'}
            sx={{ textTransform: 'capitalize' }}
          />
          {!owned && (
            <Chip
              label={STUDY_DASHBOARD_TEXTS.collaborator}
              size="small"
              color="secondary"
              variant="outlined"
            />
          )}
          <Box sx={{ flexGrow: 1 }} />
          {owned && onDelete && (
            <>
              <IconButton
                size="small"
                aria-label={STUDY_DASHBOARD_TEXTS.moreActions(study.name)}
                aria-haspopup="menu"
                aria-controls={menuAnchor ? menuId : undefined}
                aria-expanded={menuAnchor ? 'true' : undefined}
                onClick={(event) => {
                  event.stopPropagation();
                  setMenuAnchor(event.currentTarget);
                }}
                sx={{ my: -0.5, mr: -1 }}
              >
                <MoreVert fontSize="small" />
              </IconButton>
              <Menu
                id={menuId}
                anchorEl={menuAnchor}
                open={menuAnchor !== null}
                onClose={() => setMenuAnchor(null)}
                onClick={(event) => event.stopPropagation()}
                anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
                transformOrigin={{ vertical: 'top', horizontal: 'right' }}
              >
                <MenuItem
                  sx={{ color: 'error.main' }}
                  onClick={() => {
                    // The menu closes first, then the confirmation opens.
                    setMenuAnchor(null);
                    onDelete(study);
                  }}
                >
                  {DELETE_STUDY_TEXTS.menuItem}
                </MenuItem>
              </Menu>
            </>
          )}
        </Box>

        <Typography
          variant="h6"
          component="h2"
          title={study.name}
          sx={{ lineHeight: 1.3, overflowWrap: 'anywhere' }}
        >
          {nameLines.map((line, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: lines of one name never reorder.
            <Box component="span" key={index} sx={{ display: 'block' }}>
              {line}
            </Box>
          ))}
        </Typography>

        {!owned && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: -1 }}>
            {STUDY_DASHBOARD_TEXTS.ownedBy(study.ownerName)}
          </Typography>
        )}

        <Box
          sx={{
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'space-between',
            gap: 1,
            flexWrap: 'wrap',
          }}
        >
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75, color: 'text.secondary' }}>
            <People fontSize="small" aria-hidden />
            <Typography variant="body2">
              {STUDY_DASHBOARD_TEXTS.participants(study.participantCount)}
            </Typography>
          </Box>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
            <Typography variant="body2" color="text.secondary">
              {STUDY_DASHBOARD_TEXTS.codeLabel}
            </Typography>
            <Typography
              variant="body2"
              sx={{ fontFamily: 'monospace', fontWeight: 700, letterSpacing: 1 }}
              data-testid="study-code"
            >
              {study.studyCode}
            </Typography>
            <Tooltip title={STUDY_DASHBOARD_TEXTS.copyCode}>
              <IconButton
                size="small"
                aria-label={STUDY_DASHBOARD_TEXTS.copyCode}
                onClick={inside(() => onCopyCode(study))}
              >
                <ContentCopy sx={{ fontSize: 16 }} />
              </IconButton>
            </Tooltip>
          </Box>
        </Box>

        <Box sx={{ minHeight: '5.7em' }} data-testid="study-description">
          {preview.length > 0 ? (
            preview.map((line, index) => (
              <Typography
                // biome-ignore lint/suspicious/noArrayIndexKey: lines of one text never reorder.
                key={index}
                variant="body2"
                color="text.secondary"
                sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
              >
                {line}
              </Typography>
            ))
          ) : (
            <Typography variant="body2" color="text.secondary" sx={{ fontStyle: 'italic' }}>
              {STUDY_MESSAGES.noDescription}
            </Typography>
          )}
        </Box>

        <Box
          sx={{
            display: 'flex',
            alignItems: 'center',
            gap: 0.75,
            color: 'text.secondary',
            mt: 'auto',
          }}
        >
          <CalendarToday sx={{ fontSize: 16 }} aria-hidden />
          <Typography variant="caption">
            {STUDY_DASHBOARD_TEXTS.created(formatDateShort(study.createdAt))}
          </Typography>
        </Box>
      </CardContent>
      <CardActions sx={{ px: 2, pb: 2, pt: 0, gap: 1 }}>
        <Button
          size="small"
          variant="contained"
          startIcon={<Visibility />}
          onClick={inside(() => onOpen(study))}
        >
          {STUDY_DASHBOARD_TEXTS.viewStudy}
        </Button>
        {owned && onEdit && (
          <Button
            size="small"
            variant="outlined"
            startIcon={<Edit />}
            onClick={inside(() => onEdit(study))}
          >
            {EDIT_STUDY_TEXTS.title}
          </Button>
        )}
      </CardActions>
    </Card>
  );
}
