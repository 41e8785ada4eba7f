import CloudOutlined from '@mui/icons-material/CloudOutlined';
import OpenInNew from '@mui/icons-material/OpenInNew';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import {
  authenticationRequiredTo,
  BUCKET_MESSAGES,
  bucketNameForStudy,
  NOTIFICATION_TITLES,
  STUDY_DETAIL_TEXTS,
  STUDY_STORAGE_TEXTS,
} from '@research/contracts';
import type { ReactNode } from 'react';
import { useBucketUrl } from '../api/get-bucket-url';
import type { Notify } from './notify';

export interface DataExtractionTabProps {
  studyId: string;
  signedIn: boolean;
  notify: Notify;
}

/**
 * What other features show in the tab (the extraction panel, the wearable authorization
 * listing). Features do not import each other: the route composes them and hands them in.
 */
export type ExtractionSections = (props: DataExtractionTabProps) => ReactNode;

/** Tab 4 'Data export': the sections the route hands in, above the cloud storage card. */
export function DataExtractionTab({
  sections,
  ...props
}: DataExtractionTabProps & { sections?: ExtractionSections }) {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
      {sections?.(props)}
      <CloudStorageCard {...props} />
    </Box>
  );
}

function CloudStorageCard({ studyId, signedIn, notify }: DataExtractionTabProps) {
  const bucketUrl = useBucketUrl();

  const goToBucket = async () => {
    if (!signedIn) {
      notify('error', NOTIFICATION_TITLES.authenticationError, authenticationRequiredTo());
      return;
    }
    // Opened before the call, inside the click: a window opened after an await is blocked as a
    // popup. It is pointed at the signed link once that arrives, or closed on failure.
    const tab = window.open('', '_blank');
    try {
      const { signedUrl } = await bucketUrl.mutateAsync(studyId);
      if (!signedUrl) throw new Error(BUCKET_MESSAGES.generateUrlFailed);
      if (tab) {
        tab.opener = null;
        tab.location.href = signedUrl;
      } else {
        window.location.assign(signedUrl);
      }
    } catch (error) {
      tab?.close();
      const reason = error instanceof Error && error.message ? error.message : '';
      notify(
        'error',
        STUDY_STORAGE_TEXTS.bucketErrorTitle,
        reason && reason !== BUCKET_MESSAGES.generateUrlFailed
          ? BUCKET_MESSAGES.accessFailed(reason)
          : BUCKET_MESSAGES.generateUrlFailed,
      );
    }
  };

  return (
    <Card variant="outlined">
      <CardContent
        sx={{
          display: 'flex',
          flexDirection: { xs: 'column', sm: 'row' },
          alignItems: { xs: 'stretch', sm: 'center' },
          gap: 2,
        }}
      >
        <CloudOutlined color="secondary" sx={{ fontSize: 40 }} aria-hidden />
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography variant="h6" component="h2">
            {STUDY_STORAGE_TEXTS.storageTitle}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {STUDY_STORAGE_TEXTS.storageBody}
          </Typography>
          <Typography variant="body2" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
            {STUDY_STORAGE_TEXTS.bucketLabel}{' '}
            <Box component="code" sx={{ fontFamily: 'monospace' }}>
              {bucketNameForStudy(studyId)}
            </Box>
          </Typography>
        </Box>
        <Button
          variant="contained"
          color="secondary"
          onClick={goToBucket}
          disabled={bucketUrl.isPending}
          startIcon={
            bucketUrl.isPending ? <CircularProgress size={16} color="inherit" /> : <OpenInNew />
          }
        >
          {bucketUrl.isPending ? STUDY_STORAGE_TEXTS.opening : STUDY_DETAIL_TEXTS.goToBucket}
        </Button>
      </CardContent>
    </Card>
  );
}
