import Add from '@mui/icons-material/Add';
import GroupAdd from '@mui/icons-material/GroupAdd';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import {
  CHANGE_STUDY_PASSWORD_TEXTS,
  CREATE_STUDY_TEXTS,
  DELETE_STUDY_TEXTS,
  EDIT_STUDY_TEXTS,
  JOIN_MESSAGES,
  NOTIFICATION_TITLES,
  STUDY_DASHBOARD_TEXTS,
  STUDY_MESSAGES,
  type Study,
} from '@research/contracts';
import { useCallback, useEffect, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { CopiedSnackbar } from '../../../components/copied-snackbar';
import { EditStudyDialog, type EditStudyValues } from '../../../components/edit-study-dialog';
import {
  type NotificationContent,
  NotificationModal,
} from '../../../components/notification-modal';
import { ApiError } from '../../../lib/api-client';
import { useSecureAuth } from '../../../lib/auth/auth-provider';
import { displayNameOf } from '../../../lib/auth/routing';
import { useUpdateStudy } from '../../../lib/update-study';
import { useCreateStudy } from '../api/create-study';
import { useDeleteStudy } from '../api/delete-study';
import { useCollaborativeStudies } from '../api/get-collaborative-studies';
import { useOwnedStudies } from '../api/get-owned-studies';
import { useJoinStudy } from '../api/join-study';
import type { StudyListKind } from '../api/study-list';
import {
  ChangePasswordDialog,
  type ChangePasswordForm,
  changePasswordError,
  needsCurrentPassword,
} from './change-password-dialog';
import {
  CreateStudyDialog,
  type CreateStudyForm,
  createFormErrors,
  EMPTY_CREATE_FORM,
  toCreatePayload,
} from './create-study-dialog';
import { DashboardHeader, messageOf, StudiesPanel, useInvitationLink } from './dashboard-parts';
import { DeleteStudyDialog } from './delete-study-dialog';
import { EMPTY_JOIN_FORM, JoinStudyDialog, type JoinStudyForm } from './join-study-dialog';

const { authenticationRequired: AUTH_REQUIRED, authenticationError: AUTH_ERROR } =
  NOTIFICATION_TITLES;

/** /researcher/dashboard: the approved researcher's owned and collaborative studies. */
export default function ResearcherDashboardPage() {
  const { user, token } = useSecureAuth();
  const navigate = useNavigate();
  const tabsId = useId();

  const [tab, setTab] = useState<StudyListKind>('owned');
  const [notification, setNotification] = useState<NotificationContent | null>(null);
  const [copied, setCopied] = useState(false);
  const [createOpen, setCreateOpen] = useState(false);
  const [createForm, setCreateForm] = useState<CreateStudyForm>(EMPTY_CREATE_FORM);
  const [joinOpen, setJoinOpen] = useState(false);
  const [joinForm, setJoinForm] = useState<JoinStudyForm>(EMPTY_JOIN_FORM);
  const [editing, setEditing] = useState<Study | null>(null);
  const [changingPassword, setChangingPassword] = useState<Study | null>(null);
  const [deleting, setDeleting] = useState<Study | null>(null);
  // Where to go once the notification is dismissed (an existing member lands on the study).
  const [afterNotice, setAfterNotice] = useState<string | null>(null);

  const signedIn = Boolean(token);
  const owned = useOwnedStudies(signedIn);
  const collaborative = useCollaborativeStudies(signedIn);
  const createStudy = useCreateStudy();
  const updateStudy = useUpdateStudy();
  const deleteStudy = useDeleteStudy();
  const joinStudy = useJoinStudy();

  const notify = useCallback(
    (type: NotificationContent['type'], title: string, message: string) =>
      setNotification({ type, title, message }),
    [],
  );

  // Without a session nothing can load (the route guard normally prevents this).
  useEffect(() => {
    if (!signedIn) notify('error', AUTH_REQUIRED, STUDY_MESSAGES.loginToViewStudies);
  }, [signedIn, notify]);

  useEffect(() => {
    if (owned.error) {
      notify(
        'error',
        STUDY_MESSAGES.loadStudiesFailedTitle,
        messageOf(owned.error, STUDY_MESSAGES.loadOwnedStudiesFailed),
      );
    }
  }, [owned.error, notify]);

  useEffect(() => {
    if (collaborative.error) {
      notify(
        'error',
        STUDY_MESSAGES.loadStudiesFailedTitle,
        messageOf(collaborative.error, STUDY_DASHBOARD_TEXTS.loadCollaborativeFailed),
      );
    }
  }, [collaborative.error, notify]);

  useInvitationLink((form) => {
    setJoinForm(form);
    setJoinOpen(true);
  });

  const studyPath = (study: Study) => `/researcher/study/${encodeURIComponent(study.id)}`;
  const openStudy = (study: Study) => navigate(studyPath(study));

  const copyCode = async (study: Study) => {
    try {
      if (!navigator.clipboard) throw new Error('Clipboard unavailable');
      await navigator.clipboard.writeText(study.studyCode);
      setCopied(true);
    } catch {
      notify('error', STUDY_MESSAGES.copyFailedTitle, STUDY_MESSAGES.copyFailed);
    }
  };

  const submitCreate = async (form: CreateStudyForm) => {
    if (!signedIn) return notify('error', AUTH_REQUIRED, STUDY_MESSAGES.loginToCreateStudy);
    // The dialog shows broken rules under the fields and sends only a valid form.
    if (Object.keys(createFormErrors(form)).length > 0) return;
    try {
      const study = await createStudy.mutateAsync(toCreatePayload(form));
      setCreateOpen(false);
      setCreateForm(EMPTY_CREATE_FORM);
      setTab('owned');
      notify('success', STUDY_MESSAGES.createdTitle, CREATE_STUDY_TEXTS.created(study.studyCode));
    } catch (error) {
      notify(
        'error',
        STUDY_MESSAGES.createFailedTitle,
        messageOf(error, CREATE_STUDY_TEXTS.failed),
      );
    }
  };

  const submitEdit = async (study: Study, form: EditStudyValues) => {
    if (!signedIn) return notify('error', AUTH_REQUIRED, STUDY_MESSAGES.loginToUpdateStudy);
    if (!form.name.trim()) return;
    try {
      await updateStudy.mutateAsync({
        id: study.id,
        changes: {
          name: form.name.trim(),
          description: form.description.trim(),
          duration: form.duration.trim(),
        },
      });
      setEditing(null);
      notify('success', STUDY_MESSAGES.updatedTitle, EDIT_STUDY_TEXTS.updated);
    } catch (error) {
      notify('error', STUDY_MESSAGES.updateFailedTitle, messageOf(error, EDIT_STUDY_TEXTS.failed));
    }
  };

  const submitPassword = async (study: Study, form: ChangePasswordForm) => {
    if (!signedIn) return notify('error', AUTH_REQUIRED, STUDY_MESSAGES.loginToChangePassword);
    const needsCurrent = needsCurrentPassword(study);
    if (changePasswordError(form, needsCurrent)) return;
    try {
      await updateStudy.mutateAsync({
        id: study.id,
        // A first password goes alone: the server refuses a current one for a study without.
        changes: needsCurrent
          ? { password: form.next, currentPassword: form.current }
          : { password: form.next },
      });
      setChangingPassword(null);
      notify('success', STUDY_MESSAGES.passwordChangedTitle, CHANGE_STUDY_PASSWORD_TEXTS.changed);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'INVALID_CURRENT_PASSWORD') {
        notify(
          'error',
          STUDY_MESSAGES.invalidPasswordTitle,
          STUDY_MESSAGES.currentPasswordIncorrect,
        );
        return;
      }
      notify(
        'error',
        STUDY_MESSAGES.changePasswordFailedTitle,
        messageOf(error, CHANGE_STUDY_PASSWORD_TEXTS.failed),
      );
    }
  };

  const confirmDelete = async (study: Study) => {
    if (!signedIn) {
      setDeleting(null);
      return notify('error', AUTH_REQUIRED, STUDY_MESSAGES.loginToDeleteStudy);
    }
    try {
      await deleteStudy.mutateAsync(study.id);
      setDeleting(null);
      notify('success', STUDY_MESSAGES.deletedTitle, DELETE_STUDY_TEXTS.deleted(study.name));
    } catch (error) {
      setDeleting(null);
      notify(
        'error',
        STUDY_MESSAGES.deleteFailedTitle,
        messageOf(error, DELETE_STUDY_TEXTS.failed),
      );
    }
  };

  const submitJoin = async (form: JoinStudyForm) => {
    if (!signedIn) return notify('error', AUTH_ERROR, STUDY_MESSAGES.authRequiredToJoin);
    const studyCode = form.studyCode.trim();
    if (!studyCode || !form.password) return;
    try {
      const { study, message, alreadyMember } = await joinStudy.mutateAsync({
        studyCode,
        password: form.password,
      });
      setJoinOpen(false);
      setJoinForm(EMPTY_JOIN_FORM);
      if (alreadyMember) {
        // Nothing changed: say so, then open the study they already have access to.
        setAfterNotice(studyPath(study));
        notify('info', JOIN_MESSAGES.alreadyMemberTitle, message);
        return;
      }
      setTab('collaborative');
      notify('success', STUDY_MESSAGES.joinedTitle, message);
    } catch (error) {
      notify('error', STUDY_MESSAGES.joinFailedTitle, messageOf(error, STUDY_MESSAGES.joinFailed));
    }
  };

  const active = tab === 'owned' ? owned : collaborative;
  const countOf = (list: typeof owned) => list.data?.pages[0]?.totalCount;
  const studies = active.data?.pages.flatMap((page) => page.data) ?? [];

  const joinButton = (
    <Button variant="outlined" startIcon={<GroupAdd />} onClick={() => setJoinOpen(true)}>
      {STUDY_DASHBOARD_TEXTS.joinStudy}
    </Button>
  );
  const createButton = (
    <Button variant="contained" startIcon={<Add />} onClick={() => setCreateOpen(true)}>
      {STUDY_DASHBOARD_TEXTS.createStudy}
    </Button>
  );

  return (
    <Box
      component="section"
      sx={{ maxWidth: 'lg', mx: 'auto', px: { xs: 2, sm: 3 }, py: { xs: 3, md: 5 } }}
    >
      <DashboardHeader
        name={user ? displayNameOf(user) : null}
        actions={
          <>
            {joinButton}
            {tab === 'owned' && createButton}
          </>
        }
      />

      <Box sx={{ borderBottom: 1, borderColor: 'divider', mb: 3 }}>
        <Tabs
          value={tab}
          onChange={(_, value: StudyListKind) => setTab(value)}
          aria-label={STUDY_DASHBOARD_TEXTS.tabsLabel}
          variant="scrollable"
          allowScrollButtonsMobile
        >
          <Tab
            value="owned"
            label={STUDY_DASHBOARD_TEXTS.yourStudies(countOf(owned))}
            id={`${tabsId}-owned`}
            aria-controls={`${tabsId}-panel`}
          />
          <Tab
            value="collaborative"
            label={STUDY_DASHBOARD_TEXTS.collaborativeStudies(countOf(collaborative))}
            id={`${tabsId}-collaborative`}
            aria-controls={`${tabsId}-panel`}
          />
        </Tabs>
      </Box>

      <Box role="tabpanel" id={`${tabsId}-panel`} aria-labelledby={`${tabsId}-${tab}`}>
        <StudiesPanel
          tab={tab}
          list={active}
          studies={studies}
          signedIn={signedIn}
          onCreate={() => setCreateOpen(true)}
          onJoin={() => setJoinOpen(true)}
          onOpen={openStudy}
          onCopyCode={copyCode}
          onEdit={setEditing}
          onDelete={setDeleting}
        />
      </Box>

      <CreateStudyDialog
        open={createOpen}
        busy={createStudy.isPending}
        form={createForm}
        onChange={setCreateForm}
        onClose={() => setCreateOpen(false)}
        onSubmit={submitCreate}
      />
      <EditStudyDialog
        study={editing}
        busy={updateStudy.isPending && editing !== null && changingPassword === null}
        onClose={() => setEditing(null)}
        onSubmit={submitEdit}
        onChangePassword={(study) => {
          setEditing(null);
          setChangingPassword(study);
        }}
      />
      <ChangePasswordDialog
        study={changingPassword}
        busy={updateStudy.isPending && changingPassword !== null}
        onClose={() => setChangingPassword(null)}
        onSubmit={submitPassword}
      />
      <DeleteStudyDialog
        study={deleting}
        busy={deleteStudy.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={confirmDelete}
      />
      <JoinStudyDialog
        open={joinOpen}
        busy={joinStudy.isPending}
        form={joinForm}
        onChange={setJoinForm}
        onClose={() => setJoinOpen(false)}
        onSubmit={submitJoin}
      />
      <NotificationModal
        notification={notification}
        onClose={() => {
          setNotification(null);
          if (afterNotice) {
            setAfterNotice(null);
            navigate(afterNotice);
          }
        }}
      />
      <CopiedSnackbar open={copied} onClose={() => setCopied(false)} />
    </Box>
  );
}
