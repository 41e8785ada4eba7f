import Add from '@mui/icons-material/Add';
import GroupAdd from '@mui/icons-material/GroupAdd';
import GroupsOutlined from '@mui/icons-material/GroupsOutlined';
import ScienceOutlined from '@mui/icons-material/ScienceOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import {
  formatStudyCodeInput,
  STUDY_CODE,
  STUDY_DASHBOARD_TEXTS,
  STUDY_MESSAGES,
  type Study,
} from '@research/contracts';
import { type ReactNode, useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { LoadingIndicator } from '../../../components/loading-indicator';
import type { useOwnedStudies } from '../api/get-owned-studies';
import type { StudyListKind } from '../api/study-list';
import type { JoinStudyForm } from './join-study-dialog';
import type { StudyCardProps } from './study-card';
import { EmptyStudies, StudyGrid } from './study-grid';

/** The server's text where there is one, else the fallback. */
export function messageOf(error: unknown, fallback: string): string {
  return error instanceof Error && error.message.trim() ? error.message : fallback;
}

/** The dashboard's heading: the title, the welcome with the researcher's name, the buttons. */
export function DashboardHeader({ name, actions }: { name: string | null; actions: ReactNode }) {
  return (
    <Box
      sx={{
        display: 'flex',
        flexDirection: { xs: 'column', md: 'row' },
        alignItems: { xs: 'stretch', md: 'flex-end' },
        justifyContent: 'space-between',
        gap: 2,
        mb: 3,
      }}
    >
      <Box sx={{ minWidth: 0 }}>
        <Typography
          variant="overline"
          component="h1"
          color="primary"
          sx={{ display: 'block', fontWeight: 700, lineHeight: 2 }}
        >
          {STUDY_DASHBOARD_TEXTS.title}
        </Typography>
        <Typography
          variant="h4"
          component="p"
          sx={{
            fontSize: { xs: '1.6rem', md: '2.125rem' },
            fontWeight: 500,
            overflowWrap: 'anywhere',
          }}
        >
          Welcome back{name ? `, ${name}` : ''}
        </Typography>
        <Typography color="text.secondary">{STUDY_DASHBOARD_TEXTS.subtitle}</Typography>
      </Box>
      <Box
        sx={{
          display: 'flex',
          gap: 1.5,
          flexShrink: 0,
          '& > *': { flex: { xs: 1, md: 'none' } },
        }}
      >
        {actions}
      </Box>
    </Box>
  );
}

interface StudiesPanelProps extends Omit<StudyCardProps, 'study' | 'owned'> {
  tab: StudyListKind;
  list: ReturnType<typeof useOwnedStudies>;
  /** The pages loaded so far, flattened. */
  studies: Study[];
  signedIn: boolean;
  onCreate: () => void;
  onJoin: () => void;
}

/** The open tab's content: loading, the failure with 'Retry', the empty state, or the cards. */
export function StudiesPanel({
  tab,
  list,
  studies,
  signedIn,
  onCreate,
  onJoin,
  ...card
}: StudiesPanelProps) {
  if (signedIn && list.isPending) {
    return <LoadingIndicator message={STUDY_DASHBOARD_TEXTS.loading} />;
  } else if (list.isError && studies.length === 0) {
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => list.refetch()}>
            {STUDY_DASHBOARD_TEXTS.retry}
          </Button>
        }
      >
        {messageOf(
          list.error,
          tab === 'owned'
            ? STUDY_MESSAGES.loadOwnedStudiesFailed
            : STUDY_DASHBOARD_TEXTS.loadCollaborativeFailed,
        )}
      </Alert>
    );
  } else if (studies.length === 0) {
    return tab === 'owned' ? (
      <EmptyStudies
        icon={<ScienceOutlined />}
        title={STUDY_DASHBOARD_TEXTS.ownedEmptyTitle}
        body={STUDY_DASHBOARD_TEXTS.ownedEmptyBody}
        action={
          <Button variant="contained" startIcon={<Add />} onClick={onCreate}>
            {STUDY_DASHBOARD_TEXTS.ownedEmptyAction}
          </Button>
        }
      />
    ) : (
      <EmptyStudies
        icon={<GroupsOutlined />}
        title={STUDY_DASHBOARD_TEXTS.collaborativeEmptyTitle}
        body={STUDY_DASHBOARD_TEXTS.collaborativeEmptyBody}
        action={
          <Button variant="contained" startIcon={<GroupAdd />} onClick={onJoin}>
            {STUDY_DASHBOARD_TEXTS.collaborativeEmptyAction}
          </Button>
        }
      />
    );
  } else {
    return (
      <StudyGrid
        studies={studies}
        owned={tab === 'owned'}
        hasMore={Boolean(list.hasNextPage)}
        loadingMore={list.isFetchingNextPage}
        onLoadMore={() => list.fetchNextPage()}
        {...card}
      />
    );
  }
}

/**
 * An invitation link (?code=…&password=…) opens the join dialog prefilled; the secret then
 * leaves the address bar and the history entry.
 */
export function useInvitationLink(open: (form: JoinStudyForm) => void) {
  const [searchParams, setSearchParams] = useSearchParams();
  const opened = useRef(open);
  opened.current = open;
  useEffect(() => {
    const code = searchParams.get('code');
    const password = searchParams.get('password');
    if (code === null && password === null) return;
    opened.current({
      studyCode: formatStudyCodeInput(code ?? '', STUDY_CODE.joinEntryLength),
      password: password ?? '',
    });
    setSearchParams(
      (params) => {
        const next = new URLSearchParams(params);
        next.delete('code');
        next.delete('password');
        return next;
      },
      { replace: true },
    );
  }, [searchParams, setSearchParams]);
}
