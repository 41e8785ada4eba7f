import SearchOff from '@mui/icons-material/SearchOff';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import {
  CONSENT_TAB_TEXTS,
  NOTIFICATION_TITLES,
  STUDY_DETAIL_TEXTS,
  STUDY_EDIT_TEXTS,
  STUDY_MESSAGES,
  type Study,
  type StudyStats,
} from '@research/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { ConsentTab } from '../../../components/consent/consent-tab';
import { CopiedSnackbar } from '../../../components/copied-snackbar';
import { EditStudyDialog, type EditStudyValues } from '../../../components/edit-study-dialog';
import { LoadingIndicator } from '../../../components/loading-indicator';
import {
  type NotificationContent,
  NotificationModal,
} from '../../../components/notification-modal';
import { ApiError } from '../../../lib/api-client';
import { useSecureAuth } from '../../../lib/auth/auth-provider';
import { useUpdateStudy } from '../../../lib/update-study';
import { useStudy } from '../api/get-study';
import { useStudyStats } from '../api/get-study-stats';
import { studyDetailKeys } from '../api/keys';
import { CollaboratorsDialog } from './collaborators-dialog';
import { DataExtractionTab, type ExtractionSections } from './data-extraction-tab';
import { EmailHistoryTab } from './email-history-tab';
import { InviteParticipantsDialog } from './invite-participants-dialog';
import { MembersTab } from './members-tab';
import { messageOf, type Notify } from './notify';
import { ParticipantsTab } from './participants-tab';
import { PendingParticipantsTab } from './pending-participants-tab';
import { StudyHeader } from './study-header';

/** Tabs in the product's order; the index is what `?tab=` holds. */
const TABS = [
  { label: STUDY_DETAIL_TEXTS.tabs.participants, count: (s: StudyStats) => s.participants },
  { label: STUDY_DETAIL_TEXTS.tabs.pending, count: (s: StudyStats) => s.pendingParticipants },
  { label: STUDY_DETAIL_TEXTS.tabs.members, count: (s: StudyStats) => s.members },
  { label: STUDY_DETAIL_TEXTS.tabs.emails, count: (s: StudyStats) => s.emails },
  { label: STUDY_DETAIL_TEXTS.tabs.extraction, count: null },
  { label: STUDY_DETAIL_TEXTS.tabs.adherence, count: (s: StudyStats) => s.atRisk },
  { label: CONSENT_TAB_TEXTS.tab, count: null },
] as const;

/**
 * The Adherence tab, which the adherence feature owns: the route hands it in (features do not
 * import each other), loaded only when the tab is opened.
 */
export type AdherenceTabSlot = (props: { study: Study; signedIn: boolean }) => ReactNode;

const TAB_PARAM = 'tab';

/**
 * MUI scrolls the open tab into view when it changes, not when the strip narrows (a phone turned
 * upright, a window made smaller); this keeps the open tab visible then too.
 */
function useSelectedTabKeptInView() {
  const observer = useRef<ResizeObserver | null>(null);
  // A callback ref: the strip appears only once the study has loaded.
  return useCallback((strip: HTMLDivElement | null) => {
    observer.current?.disconnect();
    observer.current = null;
    if (!strip || typeof ResizeObserver === 'undefined') return;
    observer.current = new ResizeObserver(() => {
      const scroller = strip.querySelector<HTMLElement>('.MuiTabs-scroller');
      const selected = strip.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]');
      if (!scroller || !selected) return;
      const box = scroller.getBoundingClientRect();
      const tab = selected.getBoundingClientRect();
      if (tab.left < box.left) scroller.scrollLeft += tab.left - box.left;
      else if (tab.right > box.right) scroller.scrollLeft += tab.right - box.right;
    });
    observer.current.observe(strip);
    // The scroller narrows again when MUI adds its scroll buttons.
    const scroller = strip.querySelector('.MuiTabs-scroller');
    if (scroller) observer.current.observe(scroller);
  }, []);
}

/** '?tab=2' → 2; a missing, hidden or unknown tab is the first one. */
function tabIndexOf(value: string | null): number {
  if (value === null || !/^\d+$/.test(value)) return 0;
  const index = Number(value);
  return index < TABS.length ? index : 0;
}

/**
 * /researcher/study/:studyId — the study detail screen for its owner and collaborators. The route
 * hands in the Data export tab's sections from the features that own them.
 */
export default function StudyDetailPage({
  extractionSections,
  adherenceTab,
}: {
  extractionSections?: ExtractionSections;
  adherenceTab?: AdherenceTabSlot;
}) {
  const { studyId = '' } = useParams();
  const { token } = useSecureAuth();
  const signedIn = Boolean(token);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [searchParams, setSearchParams] = useSearchParams();
  const tabsId = useId();
  const tabStripRef = useSelectedTabKeptInView();

  const [notification, setNotification] = useState<NotificationContent | null>(null);
  const [copied, setCopied] = useState(false);
  const [editOpen, setEditOpen] = useState(false);
  const [inviteOpen, setInviteOpen] = useState(false);
  const [collaboratorsOpen, setCollaboratorsOpen] = useState(false);
  const [refreshing, setRefreshing] = useState(false);

  const study = useStudy(studyId, signedIn);
  const stats = useStudyStats(studyId, signedIn && study.isSuccess);
  const updateStudy = useUpdateStudy((study) =>
    // The header and the generated invitation e-mail quote name, description and duration.
    queryClient.setQueryData(studyDetailKeys.summary(study.id), study),
  );

  const notify: Notify = useCallback(
    (type, title, message) => setNotification({ type, title, message }),
    [],
  );

  const rawTab = searchParams.get(TAB_PARAM);
  const tab = tabIndexOf(rawTab);
  // A hidden or unknown tab in the address resets to the first, and the address says so.
  useEffect(() => {
    if (rawTab !== null && String(tab) !== rawTab) {
      setSearchParams(
        (params) => {
          const next = new URLSearchParams(params);
          next.delete(TAB_PARAM);
          return next;
        },
        { replace: true },
      );
    }
  }, [rawTab, tab, setSearchParams]);

  const selectTab = (index: number) =>
    setSearchParams(
      (params) => {
        const next = new URLSearchParams(params);
        if (index === 0) next.delete(TAB_PARAM);
        else next.set(TAB_PARAM, String(index));
        return next;
      },
      { replace: true },
    );

  useEffect(() => {
    if (!signedIn) {
      notify('error', NOTIFICATION_TITLES.authenticationError, STUDY_MESSAGES.authRequiredToLoad);
    }
  }, [signedIn, notify]);

  const notFound =
    study.error instanceof ApiError && (study.error.status === 404 || study.error.status === 403);

  useEffect(() => {
    if (study.error && !notFound) {
      notify(
        'error',
        STUDY_MESSAGES.loadStudyFailedTitle,
        messageOf(study.error, STUDY_MESSAGES.loadStudyFailed),
      );
    }
  }, [study.error, notFound, notify]);

  const refresh = async () => {
    setRefreshing(true);
    try {
      await queryClient.invalidateQueries({ queryKey: studyDetailKeys.study(studyId) });
    } finally {
      setRefreshing(false);
    }
  };

  const copyCode = async (code: string) => {
    try {
      if (!navigator.clipboard) throw new Error('Clipboard unavailable');
      await navigator.clipboard.writeText(code);
      setCopied(true);
    } catch {
      notify('error', STUDY_MESSAGES.copyFailedDetailTitle, STUDY_MESSAGES.copyFailed);
    }
  };

  const submitEdit = async (_study: Study, values: EditStudyValues) => {
    if (!signedIn) {
      notify('error', NOTIFICATION_TITLES.authenticationError, STUDY_MESSAGES.authRequiredToUpdate);
      return;
    }
    try {
      await updateStudy.mutateAsync({ id: studyId, changes: values });
      setEditOpen(false);
      notify('success', STUDY_MESSAGES.updatedTitle, STUDY_EDIT_TEXTS.updated);
    } catch (error) {
      notify('error', STUDY_MESSAGES.updateFailedTitle, messageOf(error, STUDY_EDIT_TEXTS.failed));
    }
  };

  const modal = (
    <NotificationModal notification={notification} onClose={() => setNotification(null)} />
  );

  if (signedIn && study.isPending) {
    return (
      <PageFrame>
        <LoadingIndicator message={STUDY_DETAIL_TEXTS.loading} />
        {modal}
      </PageFrame>
    );
  }

  if (!study.data) {
    return (
      <PageFrame>
        <Button onClick={() => navigate('/researcher/dashboard')} sx={{ mb: 2, ml: -1 }}>
          {STUDY_DETAIL_TEXTS.backToDashboard}
        </Button>
        {notFound ? (
          <Paper variant="outlined" sx={{ textAlign: 'center', py: 8, px: 2 }}>
            <SearchOff color="disabled" sx={{ fontSize: 56, mb: 1 }} aria-hidden />
            <Typography variant="h5" component="h1" gutterBottom>
              {STUDY_MESSAGES.notFound}
            </Typography>
            <Typography color="text.secondary">{STUDY_DETAIL_TEXTS.notFoundBody}</Typography>
          </Paper>
        ) : (
          <Alert
            severity="error"
            action={
              signedIn ? (
                <Button color="inherit" size="small" onClick={() => study.refetch()}>
                  {STUDY_DETAIL_TEXTS.retry}
                </Button>
              ) : undefined
            }
          >
            {signedIn
              ? messageOf(study.error, STUDY_MESSAGES.loadStudyFailed)
              : STUDY_MESSAGES.authRequiredToLoad}
          </Alert>
        )}
        {modal}
      </PageFrame>
    );
  }

  const current = study.data;
  const panelId = `${tabsId}-panel`;
  return (
    <PageFrame>
      <StudyHeader
        study={current}
        refreshing={refreshing}
        onBack={() => navigate('/researcher/dashboard')}
        onCopyCode={() => copyCode(current.studyCode)}
        onEdit={() => setEditOpen(true)}
        onRefresh={refresh}
        onInviteParticipants={() => setInviteOpen(true)}
        onInviteCollaborators={() => setCollaboratorsOpen(true)}
      />

      <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
        <Box sx={{ borderBottom: 1, borderColor: 'divider' }} ref={tabStripRef}>
          <Tabs
            value={tab}
            onChange={(_, index: number) => selectTab(index)}
            aria-label={STUDY_DETAIL_TEXTS.tabsLabel}
            variant="scrollable"
            scrollButtons="auto"
            allowScrollButtonsMobile
          >
            {TABS.map((entry, index) => {
              // No '(0)' while the counts load: a count is shown only once it is known.
              const count = entry.count && stats.data ? entry.count(stats.data) : null;
              return (
                <Tab
                  key={entry.label}
                  label={
                    count === null ? entry.label : STUDY_DETAIL_TEXTS.tabCount(entry.label, count)
                  }
                  id={`${tabsId}-tab-${index}`}
                  aria-controls={panelId}
                />
              );
            })}
          </Tabs>
        </Box>
        <Box role="tabpanel" id={panelId} aria-labelledby={`${tabsId}-tab-${tab}`}>
          {tab === 0 && (
            <ParticipantsTab
              study={current}
              signedIn={signedIn}
              notify={notify}
              onInvite={() => setInviteOpen(true)}
            />
          )}
          {tab === 1 && (
            <PendingParticipantsTab study={current} signedIn={signedIn} notify={notify} />
          )}
          {tab === 2 && <MembersTab study={current} notify={notify} />}
          {tab === 3 && <EmailHistoryTab study={current} />}
          {tab === 4 && (
            <Box sx={{ p: { xs: 2, sm: 3 } }}>
              <DataExtractionTab
                studyId={current.id}
                signedIn={signedIn}
                notify={notify}
                sections={extractionSections}
              />
            </Box>
          )}
          {tab === 5 && adherenceTab?.({ study: current, signedIn })}
          {tab === 6 && <ConsentTab study={current} notify={notify} />}
        </Box>
      </Paper>

      <EditStudyDialog
        study={editOpen ? current : null}
        editSettings
        busy={updateStudy.isPending}
        onClose={() => setEditOpen(false)}
        onSubmit={submitEdit}
      />
      <InviteParticipantsDialog
        open={inviteOpen}
        study={current}
        signedIn={signedIn}
        notify={notify}
        onClose={() => setInviteOpen(false)}
      />
      <CollaboratorsDialog
        open={collaboratorsOpen}
        study={current}
        signedIn={signedIn}
        notify={notify}
        onClose={() => setCollaboratorsOpen(false)}
      />
      {modal}
      <CopiedSnackbar open={copied} onClose={() => setCopied(false)} />
    </PageFrame>
  );
}

function PageFrame({ children }: { children: React.ReactNode }) {
  return (
    <Box
      component="section"
      sx={{ maxWidth: 'lg', mx: 'auto', px: { xs: 2, sm: 3 }, py: { xs: 3, md: 4 } }}
    >
      {children}
    </Box>
  );
}
