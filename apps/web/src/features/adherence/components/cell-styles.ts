import type { SxProps, Theme } from '@mui/material/styles';

/** A day's column and a row of the map, in pixels (rows are virtualized on these). */
export const CELL_W = 20;
export const ROW_H = 24;

const WEAR = ['#deebf7', '#9ecae1', '#4292c6', '#08519c'];
const STEPS = ['#efedf5', '#bcbddc', '#807dba', '#54278f'];

/** A sign drawn in the cell (not a text node: 45,000 cells stay light; the name says it). */
const sign = (content: string, color: string) => ({
  '&::after': { content: `"${content}"`, color, fontWeight: 700 },
});

/**
 * The cells' looks, by class, for the map and its legend: one style sheet instead of a style per
 * cell. Missing and failed days carry a sign and a pattern besides their colour.
 */
export const cellStyles: SxProps<Theme> = {
  // Block boxes of a fixed size, the sign centred by its line: the cheapest layout there is.
  '& .hm-c': {
    boxSizing: 'border-box',
    display: 'inline-block',
    flex: 'none',
    width: CELL_W - 2,
    height: ROW_H - 4,
    mx: '1px',
    borderRadius: '3px',
    fontSize: 12,
    lineHeight: `${ROW_H - 6}px`,
    textAlign: 'center',
    verticalAlign: 'middle',
    cursor: 'default',
    userSelect: 'none',
  },
  '& .hm-c:focus-visible, & .hm-c[data-shown="true"]': {
    outline: '2px solid #000',
    outlineOffset: '1px',
  },
  ...Object.fromEntries(WEAR.map((color, i) => [`& .hm-w${i}`, { bgcolor: color }])),
  ...Object.fromEntries(STEPS.map((color, i) => [`& .hm-s${i}`, { bgcolor: color }])),
  '& .hm-complete': { bgcolor: '#2e7d32' },
  // Not synced past the day yet: the colour of what came so far, inside a dashed line.
  '& .hm-partial': {
    boxShadow: 'inset 0 0 0 1px #fff',
    outline: '1px dashed #424242',
    outlineOffset: '-1px',
  },
  '& .hm-nodata': { bgcolor: '#f5f5f5', border: '1px solid #bdbdbd' },
  '& .hm-empty': { bgcolor: '#eeeeee', ...sign('–', '#424242') },
  '& .hm-failed': {
    background: 'repeating-linear-gradient(45deg, #ffcdd2 0 3px, #ffebee 3px 6px)',
    border: '1px solid #c62828',
    ...sign('!', '#8e0000'),
  },
  '& .hm-scope_missing': {
    bgcolor: '#ffe0b2',
    border: '1px solid #e65100',
    ...sign('?', '#6d2c00'),
  },
  '& .hm-revoked': { bgcolor: '#d7ccc8', ...sign('⊘', '#3e2723') },
  '& .hm-deleted_at_source': { bgcolor: '#cfd8dc', ...sign('×', '#263238') },
  '& .hm-not_collected': { border: '1px dotted #757575', ...sign('·', '#424242') },
  '& .hm-not_enrolled': { border: '1px solid transparent' },
};
