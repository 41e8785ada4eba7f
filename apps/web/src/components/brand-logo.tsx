import Box from '@mui/material/Box';

interface BrandLogoProps {
  size?: number;
  /** 'light' draws a white tile for dark backgrounds such as the app bar. */
  tone?: 'brand' | 'light';
}

/** The pulse-line mark; the same drawing as public/favicon.svg. */
export function BrandLogo({ size = 36, tone = 'brand' }: BrandLogoProps) {
  const tile = tone === 'brand' ? '#8C1515' : '#FFFFFF';
  const stroke = tone === 'brand' ? '#FFFFFF' : '#8C1515';
  return (
    <Box
      component="svg"
      viewBox="0 0 32 32"
      aria-hidden="true"
      focusable="false"
      sx={{ width: size, height: size, flexShrink: 0, display: 'block' }}
    >
      <rect width="32" height="32" rx="8" fill={tile} />
      <path
        d="M4 17h6l2.5-6 4 12 3-9 2 3H28"
        fill="none"
        stroke={stroke}
        strokeWidth="2.6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </Box>
  );
}
