import Box from '@mui/material/Box';
import type { ReactNode } from 'react';
import Markdown, { type Components } from 'react-markdown';

type Level = 1 | 2 | 3 | 4 | 5 | 6;

/**
 * The author's headings sit below the page's own: `#` becomes `h{headingLevel}`, `##` the next
 * level, and so on (h6 at most), so the page's outline stays in order for screen readers.
 */
function shiftedHeadings(headingLevel: Level): Components {
  const heading = (depth: number) => {
    const Tag = `h${Math.min(6, headingLevel + depth - 1)}` as `h${Level}`;
    return ({ children }: { children?: ReactNode }) => (
      <Tag className={`md-h${depth}`}>{children}</Tag>
    );
  };
  return {
    h1: heading(1),
    h2: heading(2),
    h3: heading(3),
    h4: heading(4),
    h5: heading(5),
    h6: heading(6),
  };
}

/**
 * A consent form written in Markdown, shown as formatted text. Raw HTML in the text is dropped
 * (skipHtml) and links keep only safe protocols (react-markdown's default URL filter): the owner's
 * text can never put markup or scripts on a participant's page.
 */
export function MarkdownView({ text, headingLevel = 4 }: { text: string; headingLevel?: Level }) {
  return (
    <Box
      sx={{
        overflowWrap: 'anywhere',
        '& .md-h1': { typography: 'h6', mt: 0 },
        '& .md-h2, & .md-h3, & .md-h4, & .md-h5, & .md-h6': {
          typography: 'subtitle1',
          fontWeight: 600,
        },
        '& p, & li': { typography: 'body2' },
        '& ul, & ol': { pl: 3 },
      }}
    >
      <Markdown skipHtml components={shiftedHeadings(headingLevel)}>
        {text}
      </Markdown>
    </Box>
  );
}
