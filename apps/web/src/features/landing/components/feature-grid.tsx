import CloudSync from '@mui/icons-material/CloudSync';
import FileDownload from '@mui/icons-material/FileDownload';
import Groups from '@mui/icons-material/Groups';
import Science from '@mui/icons-material/Science';
import Security from '@mui/icons-material/Security';
import Watch from '@mui/icons-material/Watch';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import type SvgIcon from '@mui/material/SvgIcon';
import Typography from '@mui/material/Typography';

interface Feature {
  title: string;
  description: string;
  Icon: typeof SvgIcon;
}

// The six marketing features of spec 000 §1, in its order.
export const FEATURES: readonly Feature[] = [
  {
    title: 'Secure and Compliant',
    description:
      'Health data is encrypted and access-controlled, handled with privacy and compliance in mind.',
    Icon: Security,
  },
  {
    title: 'Wearable Integration',
    description:
      'Participants connect their Fitbit in a few clicks to share activity, heart-rate and sleep data.',
    Icon: Watch,
  },
  {
    title: 'Multi-Researcher Support',
    description: 'Invite collaborating researchers to work together on the same study.',
    Icon: Groups,
  },
  {
    title: 'Data Export',
    description: 'Export raw wearable data for analysis in the tools your team already uses.',
    Icon: FileDownload,
  },
  {
    title: 'Real-Time Sync',
    description: "Data syncs as it arrives, with every participant's status tracked at a glance.",
    Icon: CloudSync,
  },
  {
    title: 'Research Focused',
    description: 'Built for academic and clinical studies, from enrolment to analysis.',
    Icon: Science,
  },
];

export function FeatureGrid() {
  return (
    // CSS grid instead of MUI Grid: the landing route's JavaScript budget is tight (DESIGN §12).
    <Box
      component="ul"
      sx={{
        listStyle: 'none',
        p: 0,
        m: 0,
        display: 'grid',
        gap: { xs: 2, md: 3 },
        gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(3, 1fr)' },
      }}
    >
      {FEATURES.map(({ title, description, Icon }) => (
        <Box key={title} component="li">
          <Card sx={{ height: '100%' }}>
            {/* Icon beside the text on phones keeps six cards from filling several screens. */}
            <CardContent
              sx={{
                p: 3,
                display: 'flex',
                flexDirection: { xs: 'row', sm: 'column' },
                gap: 2,
                alignItems: 'flex-start',
              }}
            >
              <Box
                sx={{
                  width: 48,
                  height: 48,
                  borderRadius: 2,
                  display: 'grid',
                  placeItems: 'center',
                  bgcolor: 'rgba(0, 80, 92, 0.08)',
                  color: 'secondary.main',
                  flexShrink: 0,
                }}
              >
                <Icon aria-hidden="true" />
              </Box>
              <Box>
                <Typography variant="h6" component="h3" gutterBottom>
                  {title}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {description}
                </Typography>
              </Box>
            </CardContent>
          </Card>
        </Box>
      ))}
    </Box>
  );
}
