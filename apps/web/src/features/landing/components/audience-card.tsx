import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import type SvgIcon from '@mui/material/SvgIcon';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { Link as RouterLink } from 'react-router';

interface AudienceCardProps {
  title: string;
  description: string;
  tag: string;
  actionLabel: string;
  actionTo: string;
  Icon: typeof SvgIcon;
  color: 'primary' | 'secondary';
}

/** One of the two entry points on the landing page: participants or researchers. */
export function AudienceCard({
  title,
  description,
  tag,
  actionLabel,
  actionTo,
  Icon,
  color,
}: AudienceCardProps) {
  const headingId = useId();
  return (
    <Card
      component="section"
      aria-labelledby={headingId}
      sx={{
        height: '100%',
        borderTop: 4,
        borderTopColor: `${color}.main`,
        boxShadow: '0 12px 32px rgba(31, 27, 26, 0.08)',
      }}
    >
      <CardContent
        sx={{ p: { xs: 3, md: 4 }, display: 'flex', flexDirection: 'column', height: '100%' }}
      >
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 2, flexWrap: 'wrap' }}>
          <Box
            sx={{
              width: 52,
              height: 52,
              borderRadius: 2,
              display: 'grid',
              placeItems: 'center',
              bgcolor: `${color}.main`,
              color: `${color}.contrastText`,
              flexShrink: 0,
            }}
          >
            <Icon aria-hidden="true" />
          </Box>
          <Box sx={{ minWidth: 0 }}>
            <Typography id={headingId} variant="h5" component="h2">
              {title}
            </Typography>
            {/* A static tag drawn like a small outlined chip; MUI Chip would add ~3 KB gzip. */}
            <Typography
              component="span"
              variant="caption"
              sx={{
                display: 'inline-block',
                mt: 0.75,
                px: 1.25,
                py: 0.25,
                border: 1,
                borderColor: `${color}.main`,
                borderRadius: 4,
                color: `${color}.main`,
                fontWeight: 500,
                lineHeight: 1.6,
              }}
            >
              {tag}
            </Typography>
          </Box>
        </Box>
        <Typography color="text.secondary" sx={{ mb: 3, flex: 1 }}>
          {description}
        </Typography>
        <Button
          component={RouterLink}
          to={actionTo}
          variant="contained"
          color={color}
          size="large"
          sx={{ alignSelf: { xs: 'stretch', sm: 'flex-start' }, px: 4 }}
        >
          {actionLabel}
        </Button>
      </CardContent>
    </Card>
  );
}
