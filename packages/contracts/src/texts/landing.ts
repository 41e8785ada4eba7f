/**
 * Texts of the landing page: the hero, the two entry cards, the six features, and
 * the signed-in welcome (our wording: the product gives none), whose promise fits the account.
 */

// Imports no other texts file: the landing route's JavaScript budget is tight, and
// texts shared with later pages are defined here for them to reuse.

const GO_TO_DASHBOARD = 'Go to Dashboard';
/** Also the register page's button after a submission. */
export const VIEW_APPLICATION_STATUS = 'View Application Status';

export const LANDING_TEXTS = {
  title: 'Wearable Health Research Platform',
  intro:
    'A secure research platform for health data collection from wearable devices: run studies, enrol participants with a study code and gather Fitbit data for analysis.',
  participants: {
    title: 'For Participants',
    description:
      'Join a research study with the study code from your research team and connect your Fitbit wearable. There is nothing to sign up for.',
    tag: 'No Account Required',
    action: 'Join Study',
  },
  researchers: {
    title: 'For Researchers',
    description:
      'Sign in to create and manage studies, invite participants and collaborators, follow participant status and export raw data.',
    tag: 'Secure Login Required',
    action: 'Researcher Login',
  },
  featuresOverline: 'Platform features',
  featuresHeading: 'Everything a wearable study needs',
  /** The six marketing features, in the order the landing page shows them. */
  features: {
    secure: {
      title: 'Secure and Compliant',
      description:
        'Health data is encrypted and access-controlled, handled with privacy and compliance in mind.',
    },
    wearables: {
      title: 'Wearable Integration',
      description:
        'Participants connect their Fitbit in a few clicks to share activity, heart-rate and sleep data.',
    },
    collaboration: {
      title: 'Multi-Researcher Support',
      description: 'Invite collaborating researchers to work together on the same study.',
    },
    export: {
      title: 'Data Export',
      description: 'Export raw wearable data for analysis in the tools your team already uses.',
    },
    sync: {
      title: 'Real-Time Sync',
      description: "Data syncs as it arrives, with every participant's status tracked at a glance.",
    },
    research: {
      title: 'Research Focused',
      description: 'Built for academic and clinical studies, from enrolment to analysis.',
    },
  },
  welcome: (name: string) => `Welcome back, ${name}`,
  /** The line and button under the welcome, by account. */
  welcomes: {
    master: {
      line: 'Continue to the master dashboard to review researcher applications.',
      action: GO_TO_DASHBOARD,
    },
    approved: {
      line: 'Continue to your dashboard to manage your studies.',
      action: GO_TO_DASHBOARD,
    },
    pending: {
      line: 'Your researcher application is under review. You will receive an e-mail with the decision.',
      action: VIEW_APPLICATION_STATUS,
    },
    rejected: {
      line: 'Your researcher application was not approved. See the reason and submit a new application.',
      action: VIEW_APPLICATION_STATUS,
    },
    noApplication: {
      line: 'Complete your researcher application to start creating studies.',
      action: 'Complete Application',
    },
  },
} as const;
