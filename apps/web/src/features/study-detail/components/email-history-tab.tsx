import Visibility from '@mui/icons-material/VisibilityOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Typography from '@mui/material/Typography';
import {
  EMAIL_HISTORY_TEXTS,
  type EmailRecord,
  emailSummary,
  STUDY_DETAIL_TEXTS,
  type Study,
} from '@research/contracts';
import { useState } from 'react';
import { LoadingIndicator } from '../../../components/loading-indicator';
import { useEmailHistory } from '../api/get-email-history';
import { EmailDetailsDialog, formatSentAt } from './email-details-dialog';
import { EmptyPanel, LoadFailedPanel } from './empty-panel';

/** Tab 3: every mailing of the study, newest first, with its summary line and a View button. */
export function EmailHistoryTab({ study }: { study: Study }) {
  const history = useEmailHistory(study.id);
  const [viewing, setViewing] = useState<EmailRecord | null>(null);

  if (history.isPending) return <LoadingIndicator />;
  if (history.isError && !history.data) {
    return <LoadFailedPanel error={history.error} onRetry={() => history.refetch()} />;
  }
  const emails = history.data.pages.flatMap((page) => page.emails);
  if (emails.length === 0) {
    return <EmptyPanel title={STUDY_DETAIL_TEXTS.noEmails} body={EMAIL_HISTORY_TEXTS.emptyBody} />;
  }

  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <List aria-label={EMAIL_HISTORY_TEXTS.listLabel} disablePadding>
        {emails.map((email) => (
          <ListItem
            key={email.id}
            divider
            sx={{
              display: 'flex',
              flexDirection: { xs: 'column', sm: 'row' },
              alignItems: { xs: 'stretch', sm: 'center' },
              gap: 1,
              py: 1.5,
            }}
          >
            <Box sx={{ flex: 1, minWidth: 0 }}>
              <Typography sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
                {email.emailSubject || EMAIL_HISTORY_TEXTS.noSubject}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {emailSummary(email.kind, email.sentCount)} · {formatSentAt(email.sentAt)}
              </Typography>
            </Box>
            <Button
              variant="outlined"
              size="small"
              startIcon={<Visibility />}
              onClick={() => setViewing(email)}
              aria-label={`${EMAIL_HISTORY_TEXTS.view}: ${email.emailSubject}`}
              sx={{ alignSelf: { xs: 'flex-start', sm: 'center' } }}
            >
              {EMAIL_HISTORY_TEXTS.view}
            </Button>
          </ListItem>
        ))}
      </List>
      {history.hasNextPage && (
        <Box sx={{ textAlign: 'center', mt: 2 }}>
          <Button onClick={() => history.fetchNextPage()} disabled={history.isFetchingNextPage}>
            {EMAIL_HISTORY_TEXTS.loadMore}
          </Button>
        </Box>
      )}
      <EmailDetailsDialog studyId={study.id} email={viewing} onClose={() => setViewing(null)} />
    </Box>
  );
}
