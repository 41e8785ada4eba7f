import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import {
  ADMIN_MESSAGES,
  ADMIN_TEXTS,
  displayPhone,
  formatDateShort,
  type Researcher,
} from '@research/contracts';
import type { ReactNode } from 'react';
import { LoadingIndicator } from '../../../components/loading-indicator';
import { useApplicationsByEmail } from '../api/get-applications';
import { DetailList, FailureAlert, formatDateTimeShort, fullName, StatusChip } from './admin-ui';
import { DetailsDialog, descriptionItem } from './details-dialog';

interface ResearcherApplicationDialogProps {
  researcher: Researcher;
  onClose: () => void;
}

/**
 * The application behind an approved researcher, looked up by
 * e-mail and matched on the researcher's applicationId.
 */
export function ResearcherApplicationDialog({
  researcher,
  onClose,
}: ResearcherApplicationDialogProps) {
  const lookup = useApplicationsByEmail(researcher.email);
  const application =
    lookup.data?.applications.find((a) => a.id === researcher.applicationId) ?? null;
  const f = ADMIN_TEXTS.fields;

  let content: ReactNode;
  if (lookup.isPending) {
    content = <LoadingIndicator />;
  } else if (lookup.isError) {
    content = <FailureAlert title={ADMIN_MESSAGES.loadApplicationsFailed} error={lookup.error} />;
  } else if (!application) {
    content = <Typography color="text.secondary">{ADMIN_TEXTS.dialogs.notFound}</Typography>;
  } else {
    content = (
      <>
        <Section title={f.personalInfo}>
          <DetailList
            items={[
              { label: f.name, value: fullName(application) },
              { label: f.email, value: application.email },
              { label: f.dateOfBirth, value: formatDateShort(application.dateOfBirth) },
              { label: f.phoneNumber, value: displayPhone(application.phoneNumber) },
            ]}
          />
        </Section>
        <Section title={f.institutionInfo}>
          <DetailList
            items={[
              { label: f.institution, value: application.institution },
              { label: f.department, value: application.department ?? '' },
              { label: f.position, value: application.position },
              { label: f.researchArea, value: application.researchArea ?? '' },
              descriptionItem(application),
            ]}
          />
        </Section>
        <Section title={f.status}>
          <DetailList
            items={[
              { label: f.status, value: <StatusChip status={application.status} /> },
              { label: f.submitted, value: formatDateTimeShort(application.submittedAt) },
              { label: f.reviewed, value: formatDateTimeShort(application.reviewedAt) },
              { label: f.reviewNotes, value: application.reviewNotes ?? '' },
            ]}
          />
        </Section>
      </>
    );
  }

  return (
    <DetailsDialog
      title={
        <>
          {ADMIN_TEXTS.dialogs.researcherTitle}: {fullName(researcher)}
        </>
      }
      onClose={onClose}
    >
      {content}
    </DetailsDialog>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" sx={{ '& + &': { mt: 3 } }}>
      <Typography variant="subtitle1" component="h3" sx={{ mb: 1.5 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}
