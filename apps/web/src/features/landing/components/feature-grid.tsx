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
import { LANDING_TEXTS } from '@research/contracts';

interface Feature {
  title: string;
  description: string;
  Icon: typeof SvgIcon;
}

const { features } = LANDING_TEXTS;

// The six marketing features, in the order the page shows them.
const FEATURES: readonly Feature[] = [
  { ...features.secure, Icon: Security },
  { ...features.wearables, Icon: Watch },
  { ...features.collaboration, Icon: Groups },
  { ...features.export, Icon: FileDownload },
  { ...features.sync, Icon: CloudSync },
  { ...features.research, Icon: Science },
];

export function FeatureGrid() {
  return (
    // CSS grid instead of MUI Grid: the landing route's JavaScript budget is tight.
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
