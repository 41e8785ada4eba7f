import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { Study } from '@research/contracts';
import { STUDY_DASHBOARD_TEXTS } from '@research/contracts';
import type { ReactNode } from 'react';
import { StudyCard, type StudyCardProps } from './study-card';

interface StudyGridProps extends Omit<StudyCardProps, 'study'> {
  studies: Study[];
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
}

/** 1 column on phones, 2 on tablets, 3 on desktops; 24 cards a page, more on demand. */
export function StudyGrid({ studies, hasMore, loadingMore, onLoadMore, ...card }: StudyGridProps) {
  return (
    <>
      <Box
        component="ul"
        sx={{
          listStyle: 'none',
          m: 0,
          p: 0,
          display: 'grid',
          gap: { xs: 2, md: 3 },
          gridTemplateColumns: {
            xs: '1fr',
            sm: 'repeat(2, minmax(0, 1fr))',
            lg: 'repeat(3, minmax(0, 1fr))',
          },
        }}
      >
        {studies.map((study) => (
          <Box component="li" key={study.id} sx={{ minWidth: 0 }}>
            <StudyCard study={study} {...card} />
          </Box>
        ))}
      </Box>
      {hasMore && (
        <Box sx={{ display: 'flex', justifyContent: 'center', mt: 4 }}>
          <Button
            variant="outlined"
            onClick={onLoadMore}
            disabled={loadingMore}
            startIcon={loadingMore ? <CircularProgress size={16} color="inherit" /> : undefined}
          >
            {loadingMore ? STUDY_DASHBOARD_TEXTS.loadingMore : STUDY_DASHBOARD_TEXTS.loadMore}
          </Button>
        </Box>
      )}
    </>
  );
}

interface EmptyStudiesProps {
  icon: ReactNode;
  title: string;
  body: string;
  action: ReactNode;
}

export function EmptyStudies({ icon, title, body, action }: EmptyStudiesProps) {
  return (
    <Paper
      variant="outlined"
      sx={{
        py: { xs: 6, md: 8 },
        px: 3,
        textAlign: 'center',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        gap: 2,
        borderStyle: 'dashed',
      }}
    >
      <Box sx={{ color: 'text.disabled', '& svg': { fontSize: 56 } }}>{icon}</Box>
      <Typography variant="h5" component="h2">
        {title}
      </Typography>
      <Typography color="text.secondary" sx={{ maxWidth: 440 }}>
        {body}
      </Typography>
      {action}
    </Paper>
  );
}
