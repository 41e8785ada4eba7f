import { AUDIT_PLATFORM_KINDS, AUDIT_TEXTS as T } from '@research/contracts';
import { AuditPageFrame } from './audit-page-frame';
import { AuditTrailView } from './audit-trail-view';

/** /master/audit — the platform's audit trail (the master only). */
export default function PlatformAuditPage() {
  return (
    <AuditPageFrame
      back={{ to: '/master/dashboard', label: T.backToDashboard }}
      title={T.platformTitle}
      intro={T.platformIntro}
    >
      <AuditTrailView scope={{ platform: true }} kinds={AUDIT_PLATFORM_KINDS} csvName="platform" />
    </AuditPageFrame>
  );
}
