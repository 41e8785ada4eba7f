import { createTheme } from '@mui/material/styles';

// Only the weights the theme uses are bundled (see main.tsx); headings are 700, labels 500.
const fontFamily = '"Roboto", "Helvetica Neue", Arial, sans-serif';

export const BRAND_PRIMARY = '#8C1515';
export const BRAND_SECONDARY = '#00505C';

export const theme = createTheme({
  palette: {
    // Both brand colours reach a contrast above 8:1 against white, so white text on them and
    // them on white pass WCAG AA at any size.
    primary: { main: BRAND_PRIMARY, light: '#B83A3A', dark: '#5E0E0E', contrastText: '#FFFFFF' },
    secondary: {
      main: BRAND_SECONDARY,
      light: '#2E7F8A',
      dark: '#00363E',
      contrastText: '#FFFFFF',
    },
    // MUI's own warning and info blues read at 3.1:1 and 3.9:1 under white text (the 'inactive'
    // and 'running' chips); these darker shades reach 5.5:1, as text on white too.
    warning: { main: '#A94F00', contrastText: '#FFFFFF' },
    info: { main: '#0B6FA4', contrastText: '#FFFFFF' },
    background: { default: '#FAF8F7', paper: '#FFFFFF' },
    text: { primary: '#1F1B1A', secondary: '#57504D' },
  },
  shape: { borderRadius: 12 },
  spacing: 8,
  typography: {
    fontFamily,
    h1: { fontWeight: 700, letterSpacing: '-0.02em' },
    h2: { fontWeight: 700, letterSpacing: '-0.015em' },
    h3: { fontWeight: 700 },
    h4: { fontWeight: 700 },
    h5: { fontWeight: 700 },
    h6: { fontWeight: 500 },
    subtitle1: { fontWeight: 500 },
    button: { fontWeight: 500, textTransform: 'none', letterSpacing: 0 },
    overline: { fontWeight: 700, letterSpacing: '0.12em' },
  },
  components: {
    MuiButton: {
      defaultProps: { disableElevation: true },
      styleOverrides: { root: { borderRadius: 10 } },
    },
    MuiCard: {
      defaultProps: { elevation: 0 },
      styleOverrides: { root: { border: '1px solid #E8E1DE' } },
    },
    MuiChip: {
      styleOverrides: { root: { fontWeight: 500 } },
    },
    // A locked field's helper text still tells something (why it is locked): MUI's disabled grey
    // reads at 2.7:1, the secondary text colour at 7.9:1.
    MuiFormHelperText: {
      styleOverrides: {
        root: ({ theme }) => ({ '&.Mui-disabled': { color: theme.palette.text.secondary } }),
      },
    },
  },
});
