import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { SHELL_TEXTS } from '@research/contracts';
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
            {SHELL_TEXTS.footerAbout}
          </Typography>
        </Box>
        <Box sx={{ borderTop: '1px solid rgba(255,255,255,0.2)', mt: 3, pt: 2.5 }}>
          <Typography variant="body2" sx={{ opacity: 0.85 }}>
            {SHELL_TEXTS.copyright(year)}
          </Typography>
        </Box>
      </Box>
    </Box>
  );
}
