import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { BrandLogo } from '../../components/brand-logo';

export function SiteFooter() {
  // Evaluated per render so a tab left open over New Year still shows the right year.
  const year = new Date().getFullYear();
  return (
    <Box
      component="footer"
      sx={{ bgcolor: 'secondary.dark', color: 'secondary.contrastText', py: { xs: 4, md: 5 } }}
    >
      <Box sx={{ maxWidth: 'lg', mx: 'auto', px: { xs: 2, sm: 3 } }}>
        <Box
          sx={{
            display: 'flex',
            flexDirection: { xs: 'column', sm: 'row' },
            alignItems: { xs: 'flex-start', sm: 'center' },
            gap: 2,
          }}
        >
          <BrandLogo tone="light" size={32} />
          <Typography variant="body2" sx={{ maxWidth: 640, opacity: 0.95 }}>
            A secure research platform for health data collection and analysis, built with privacy
            and compliance in mind.
          </Typography>
        </Box>
        <Box sx={{ borderTop: '1px solid rgba(255,255,255,0.2)', mt: 3, pt: 2.5 }}>
          <Typography variant="body2" sx={{ opacity: 0.85 }}>
            © {year} Wearable Health Research Platform. All rights reserved.
          </Typography>
        </Box>
      </Box>
    </Box>
  );
}
