import Box from '@mui/material/Box';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';

/** Label–value lines as a description list, used by the summary and every dialog of the panel. */
export function SummaryLines({ lines }: { lines: [string, string][] }) {
  return (
    <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', gap: 0.5 }}>
      {lines.map(([label, value]) => (
        <Box key={label} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2" color="text.secondary" sx={{ pr: 2 }}>
            {label}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

/** A titled short list with its "and N more" line, as `previewList` cuts it. */
export function PreviewBlock({
  title,
  preview,
}: {
  title: string;
  preview: { items: string[]; moreLabel: string | null };
}) {
  return (
    <Box sx={{ mb: 2 }}>
      <Typography variant="subtitle2" component="h3">
        {title}
      </Typography>
      <List dense disablePadding>
        {preview.items.map((item) => (
          <ListItem key={item} disableGutters>
            <ListItemText primary={item} />
          </ListItem>
        ))}
        {preview.moreLabel && (
          <ListItem disableGutters>
            <ListItemText primary={preview.moreLabel} />
          </ListItem>
        )}
      </List>
    </Box>
  );
}
