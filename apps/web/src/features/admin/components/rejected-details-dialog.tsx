import { ADMIN_TEXTS, formatDateShort, type ResearcherApplicationView } from '@research/contracts';
import { DetailList, formatDateTimeShort, fullName, StatusChip } from './admin-ui';
import { DetailsDialog, DocumentsSection, descriptionItem } from './details-dialog';

interface RejectedDetailsDialogProps {
  application: ResearcherApplicationView;
  onClose: () => void;
}

/** A rejected application with the reason given. */
export function RejectedDetailsDialog({ application, onClose }: RejectedDetailsDialogProps) {
  const f = ADMIN_TEXTS.fields;
  return (
    <DetailsDialog
      title={
        <>
          {ADMIN_TEXTS.dialogs.rejectedTitle}: {fullName(application)}
        </>
      }
      onClose={onClose}
    >
      <DetailList
        items={[
          { label: f.email, value: application.email },
          { label: f.institution, value: application.institution },
          { label: f.dateOfBirth, value: formatDateShort(application.dateOfBirth) },
          { label: f.status, value: <StatusChip status={application.status} /> },
          { label: f.submitted, value: formatDateTimeShort(application.submittedAt) },
          { label: f.rejected, value: formatDateTimeShort(application.reviewedAt) },
          descriptionItem(application),
          { label: f.reviewNotes, value: application.reviewNotes ?? '', wide: true },
        ]}
      />
      <DocumentsSection application={application} />
    </DetailsDialog>
  );
}
