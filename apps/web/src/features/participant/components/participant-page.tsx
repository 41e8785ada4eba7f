import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { PARTICIPANT_COMMON_TEXTS } from '@research/contracts';
import { type ReactNode, useEffect, useRef } from 'react';
import { WashSection } from '../../../components/wash-section';

export interface ParticipantPageProps {
  title: string;
  subtitle?: string;
  /** Step names; omitted on pages without steps. */
  steps?: readonly string[];
  activeStep?: number;
  children: ReactNode;
}

/**
 * The frame of every participant page: one centred card that fills a phone's width. Steppers
 * with many steps do not fit 390 px, so phones see 'Step n of N' with the step's name and a
 * progress bar instead. When the step changes, its first field (or else its heading) takes the
 * focus, so keyboard and screen-reader users land on the new step.
 */
export function ParticipantPage({
  title,
  subtitle,
  steps,
  activeStep = 0,
  children,
}: ParticipantPageProps) {
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('md'));
  const stepHeading = useRef<HTMLHeadingElement>(null);
  const firstRender = useRef(true);
  const content = useRef<HTMLDivElement>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the step changes
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    // The step's first field if it has one (type straight away), else its heading.
    const field = content.current?.querySelector<HTMLElement>(
      'input:not([type="hidden"]):not([disabled]):not([readonly]), textarea:not([disabled])',
    );
    (field ?? stepHeading.current)?.focus();
  }, [activeStep]);

  const total = steps?.length ?? 0;
  const current = steps ? Math.min(activeStep, total - 1) : 0;

  return (
    <WashSection py={{ xs: 2.5, md: 5 }}>
      <Paper
        variant="outlined"
        sx={{ width: '100%', maxWidth: steps && total > 4 ? 880 : 680, p: { xs: 2, sm: 4 } }}
      >
        <Typography variant="h4" component="h1" sx={{ fontSize: { xs: '1.6rem', sm: '2.1rem' } }}>
          {title}
        </Typography>
        {subtitle && (
          <Typography color="text.secondary" sx={{ mt: 1 }}>
            {subtitle}
          </Typography>
        )}
        {steps && (
          <Box sx={{ mt: 3, mb: 3 }}>
            {wide ? (
              <Stepper activeStep={current} alternativeLabel>
                {steps.map((label) => (
                  <Step key={label}>
                    <StepLabel>{label}</StepLabel>
                  </Step>
                ))}
              </Stepper>
            ) : (
              <Box>
                <Typography variant="overline" color="text.secondary">
                  {PARTICIPANT_COMMON_TEXTS.stepOf(current + 1, total)}
                </Typography>
                <LinearProgress
                  variant="determinate"
                  value={((current + 1) / total) * 100}
                  aria-hidden
                  sx={{ mt: 0.5, height: 6, borderRadius: 3 }}
                />
              </Box>
            )}
            <Typography
              ref={stepHeading}
              tabIndex={-1}
              variant="h6"
              component="h2"
              sx={{ mt: 3, outline: 'none' }}
            >
              {steps[current]}
            </Typography>
          </Box>
        )}
        <Box ref={content} sx={{ mt: steps ? 0 : 3 }}>
          {children}
        </Box>
      </Paper>
    </WashSection>
  );
}

/** A row of actions: Back on the left, the step's main action on the right; stacked on phones. */
export function StepActions({ children }: { children: ReactNode }) {
  return (
    <Box
      sx={{
        display: 'flex',
        flexDirection: { xs: 'column-reverse', sm: 'row' },
        justifyContent: 'space-between',
        gap: 1.5,
        mt: 3,
        '& > *': { minHeight: 44 },
        // The placeholder that keeps a lone action on the right takes no room when stacked.
        '& > span:empty': { display: { xs: 'none', sm: 'block' } },
      }}
    >
      {children}
    </Box>
  );
}

export const errorText = (error: unknown, fallback: string): string =>
  error instanceof Error && error.message.trim() ? error.message : fallback;
