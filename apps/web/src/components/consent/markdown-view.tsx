import Box from '@mui/material/Box';
import Markdown from 'react-markdown';

/**
 * A consent form written in Markdown, shown as formatted text. Raw HTML in the text is dropped
 * (skipHtml) and links keep only safe protocols (react-markdown's default URL filter): the owner's
 * text can never put markup or scripts on a participant's page.
 */
export function MarkdownView({ text }: { text: string }) {
  return (
    <Box
      sx={{
        overflowWrap: 'anywhere',
        '& h1': { typography: 'h6', mt: 0 },
        '& h2, & h3': { typography: 'subtitle1', fontWeight: 600 },
        '& p, & li': { typography: 'body2' },
        '& ul, & ol': { pl: 3 },
      }}
    >
      <Markdown skipHtml>{text}</Markdown>
    </Box>
  );
}
