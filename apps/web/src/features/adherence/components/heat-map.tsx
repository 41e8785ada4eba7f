// biome-ignore-all lint/a11y/useSemanticElements: an ARIA grid of divs: rows are CSS grids and virtualized, which table elements do not allow without losing their semantics
// biome-ignore-all lint/a11y/useFocusableInteractive: one tab stop for the whole grid (roving focus on its cells and names), as the ARIA grid pattern has it
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import {
  ADHERENCE_TEXTS,
  type AdherenceMetric,
  type AdherenceRow,
  adherenceCellText,
  adherenceDay,
  adherenceFullDay,
} from '@research/contracts';
import {
  type CSSProperties,
  type FocusEvent,
  type KeyboardEvent,
  type MouseEvent,
  memo,
  useCallback,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { Link } from 'react-router';
import { cellClass, displayName } from '../model';
import { CELL_W, cellStyles, ROW_H } from './cell-styles';

/** Rows drawn above and below the visible ones, so a quick scroll does not show blanks. */
const OVERSCAN = 8;
const HEADER_H = 40;
/**
 * The grid's looks, made once: every row is a fixed-size flex line (its width is the name column
 * plus the days), contained, so scrolling lays out only the rows that come into view.
 */
const GRID_STYLES = {
  '--hm-name': { xs: '104px', sm: '180px' },
  position: 'relative',
  overflow: 'auto',
  maxHeight: { xs: '60vh', md: 560 },
  border: 1,
  borderColor: 'divider',
  borderRadius: 1,
  overscrollBehavior: 'contain',
  '& .hm-row': {
    display: 'flex',
    alignItems: 'center',
    height: ROW_H,
    width: `calc(var(--hm-name) + var(--hm-days) * ${CELL_W}px)`,
    contain: 'size layout style',
  },
  '& .hm-name': {
    position: 'sticky',
    left: 0,
    zIndex: 2,
    flex: 'none',
    boxSizing: 'border-box',
    width: 'var(--hm-name)',
    height: '100%',
    display: 'flex',
    alignItems: 'center',
    px: 1,
    bgcolor: 'background.paper',
    borderRight: 1,
    borderColor: 'divider',
    fontSize: 13,
  },
  '& .hm-name a': {
    color: 'primary.main',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
  },
  '& .hm-head': {
    position: 'sticky',
    top: 0,
    zIndex: 3,
    bgcolor: 'background.paper',
    borderBottom: 1,
    borderColor: 'divider',
  },
  '& .hm-head .hm-row': { height: HEADER_H, alignItems: 'flex-end' },
  '& .hm-head .hm-name': { zIndex: 4, fontWeight: 700, alignItems: 'flex-end', pb: 0.5 },
  '& .hm-day': {
    flex: 'none',
    width: CELL_W,
    fontSize: 10,
    lineHeight: 1.2,
    color: 'text.secondary',
    textAlign: 'center',
    pb: 0.5,
    whiteSpace: 'nowrap',
  },
  '& .hm-month': { display: 'block', fontWeight: 700, color: 'text.primary' },
} as const;

/** Rows PageUp and PageDown move by. */
const PAGE_ROWS = 10;

export interface HeatMapProps {
  studyId: string;
  days: readonly string[];
  rows: readonly AdherenceRow[];
  metric: AdherenceMetric;
  validDayMinHours: number;
}

interface Position {
  row: number;
  /** 0: the name; 1…n: the days. */
  col: number;
}

const positionOf = (target: EventTarget): Position | null => {
  const cell = (target as HTMLElement).closest?.('[data-c]');
  if (!(cell instanceof HTMLElement)) return null;
  return { row: Number(cell.dataset.r), col: Number(cell.dataset.c) };
};

/**
 * The heat map: one row per participant, one cell per day. An ARIA grid with one tab stop (the
 * arrow keys move a roving focus), whose rows are virtualized (only those in view, and a few
 * more, are in the page), so 500 participants × 90 days stay a few thousand light elements.
 * The day under the pointer, the focus or a tap is spelled out above the map.
 */
export function HeatMap({ studyId, days, rows, metric, validDayMinHours }: HeatMapProps) {
  const helpId = useId();
  const scroller = useRef<HTMLDivElement>(null);
  const focusPending = useRef(false);
  const [range, setRange] = useState({ start: 0, end: Math.min(rows.length, 40) });
  const [active, setActive] = useState<Position>({ row: 0, col: 1 });
  const [shown, setShown] = useState<Position | null>(null);
  const dayLabels = useMemo(() => days.map(adherenceDay), [days]);

  const rowCount = rows.length;
  const colCount = days.length + 1;

  const measure = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    const first = Math.floor(el.scrollTop / ROW_H);
    const visible = Math.ceil(Math.max(el.clientHeight, 8 * ROW_H) / ROW_H) + 1;
    const start = Math.max(0, Math.min(first - OVERSCAN, rowCount - 1));
    const end = Math.min(rowCount, first + visible + OVERSCAN);
    setRange((current) =>
      current.start === start && current.end === end ? current : { start, end },
    );
  }, [rowCount]);

  useLayoutEffect(() => {
    measure();
    const el = scroller.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [measure]);

  // The tab stop: the active cell, kept inside the rows drawn (the first of them otherwise).
  const start = Math.min(range.start, Math.max(0, rowCount - 1));
  const end = Math.max(start, Math.min(range.end, rowCount));
  const activeRow =
    active.row >= start && active.row < end ? active.row : Math.min(start, rowCount - 1);
  const activeCol = Math.min(active.col, colCount - 1);

  useLayoutEffect(() => {
    if (!focusPending.current) return;
    focusPending.current = false;
    scroller.current
      ?.querySelector<HTMLElement>(`[data-r="${activeRow}"][data-c="${activeCol}"]`)
      ?.focus({ preventScroll: true });
  });

  /** Scrolls so that the cell is in view, below the header and right of the names. */
  const reveal = ({ row, col }: Position) => {
    const el = scroller.current;
    if (!el) return;
    const top = row * ROW_H;
    const room = el.clientHeight - HEADER_H;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + ROW_H > el.scrollTop + room) el.scrollTop = top + ROW_H - room;
    if (col > 0) {
      const nameWidth = el.querySelector<HTMLElement>('.hm-name')?.offsetWidth ?? 0;
      const left = nameWidth + (col - 1) * CELL_W;
      if (left < el.scrollLeft + nameWidth) el.scrollLeft = left - nameWidth;
      else if (left + CELL_W > el.scrollLeft + el.clientWidth)
        el.scrollLeft = left + CELL_W - el.clientWidth;
    }
    measure();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (rowCount === 0) return;
    const from = positionOf(event.target) ?? { row: activeRow, col: activeCol };
    let { row, col } = from;
    const last = colCount - 1;
    switch (event.key) {
      case 'ArrowRight':
        col += 1;
        break;
      case 'ArrowLeft':
        col -= 1;
        break;
      case 'ArrowDown':
        row += 1;
        break;
      case 'ArrowUp':
        row -= 1;
        break;
      case 'PageDown':
        row += PAGE_ROWS;
        break;
      case 'PageUp':
        row -= PAGE_ROWS;
        break;
      case 'Home':
        if (event.ctrlKey) row = 0;
        col = event.ctrlKey ? from.col : 0;
        break;
      case 'End':
        if (event.ctrlKey) row = rowCount - 1;
        col = event.ctrlKey ? from.col : last;
        break;
      case 'Enter':
      case ' ':
        // On a day: its details (as a tap); on a name the link itself opens the charts.
        if (from.col > 0) {
          event.preventDefault();
          setShown(from);
        }
        return;
      case 'Escape':
        setShown(null);
        return;
      default:
        return;
    }
    event.preventDefault();
    const next = {
      row: Math.max(0, Math.min(rowCount - 1, row)),
      col: Math.max(0, Math.min(last, col)),
    };
    focusPending.current = true;
    setActive(next);
    reveal(next);
  };

  const onFocus = (event: FocusEvent<HTMLDivElement>) => {
    const at = positionOf(event.target);
    if (!at) return;
    setActive(at);
    setShown(at.col > 0 ? at : null);
  };

  const onPointerOver = (event: MouseEvent<HTMLDivElement>) => {
    const at = positionOf(event.target);
    if (at && at.col > 0) setShown(at);
  };

  const onPointerLeave = () => {
    // Back to the focused day, if the focus is in the map.
    const focused = document.activeElement && positionOf(document.activeElement);
    setShown(
      focused && scroller.current?.contains(document.activeElement) && focused.col > 0
        ? focused
        : null,
    );
  };

  const shownRow = shown ? rows[shown.row] : undefined;
  const details =
    shown && shownRow && shown.col > 0
      ? ADHERENCE_TEXTS.heatmap.details(
          displayName(shownRow),
          adherenceCellText({
            day: dayLabels[shown.col - 1] ?? '',
            state: shownRow.states[shown.col - 1] ?? 'not_collected',
            metric,
            wearMinutes: shownRow.wearMinutes[shown.col - 1] ?? null,
            steps: shownRow.steps[shown.col - 1] ?? null,
            reason: shownRow.reasons[String(shown.col - 1)],
          }),
        )
      : '';

  const drawn = [];
  for (let index = start; index < end; index += 1) {
    const row = rows[index];
    if (!row) continue;
    drawn.push(
      <HeatMapRow
        key={row.id}
        studyId={studyId}
        row={row}
        index={index}
        dayLabels={dayLabels}
        metric={metric}
        validDayMinHours={validDayMinHours}
        activeCol={index === activeRow ? activeCol : -1}
        shownCol={shown && shown.row === index ? shown.col : -1}
      />,
    );
  }

  return (
    <Box sx={cellStyles}>
      {/* What the pointer, the focus or a tap is on, in words (the cell's name says the same). */}
      <Typography
        variant="body2"
        data-testid="heat-map-details"
        sx={{ minHeight: '1.5em', mb: 0.5, overflowWrap: 'anywhere' }}
      >
        {details}
      </Typography>
      <Box
        ref={scroller}
        role="grid"
        aria-label={ADHERENCE_TEXTS.heatmap.label}
        aria-describedby={helpId}
        aria-rowcount={rowCount + 1}
        aria-colcount={colCount}
        onScroll={measure}
        onKeyDown={onKeyDown}
        onFocus={onFocus}
        onMouseOver={onPointerOver}
        onMouseLeave={onPointerLeave}
        style={{ '--hm-days': days.length } as CSSProperties}
        sx={GRID_STYLES}
      >
        <div role="rowgroup" className="hm-head">
          <div role="row" aria-rowindex={1} className="hm-row">
            <div role="columnheader" className="hm-name">
              {ADHERENCE_TEXTS.heatmap.participant}
            </div>
            {days.map((day, i) => (
              <div
                key={day}
                role="columnheader"
                className="hm-day"
                aria-label={adherenceFullDay(day)}
              >
                {(i === 0 || day.endsWith('-01')) && (
                  <span className="hm-month" aria-hidden>
                    {dayLabels[i]?.split(' ')[0]}
                  </span>
                )}
                <span aria-hidden>{Number(day.slice(8))}</span>
              </div>
            ))}
          </div>
        </div>
        <div
          role="rowgroup"
          style={{ paddingTop: start * ROW_H, paddingBottom: (rowCount - end) * ROW_H }}
        >
          {drawn}
        </div>
      </Box>
      <Typography id={helpId} variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
        {ADHERENCE_TEXTS.heatmap.help}
      </Typography>
    </Box>
  );
}

interface HeatMapRowProps {
  studyId: string;
  row: AdherenceRow;
  index: number;
  dayLabels: readonly string[];
  metric: AdherenceMetric;
  validDayMinHours: number;
  /** The column holding the tab stop in this row, or -1. */
  activeCol: number;
  /** The column whose details are shown in this row, or -1. */
  shownCol: number;
}

/** One participant's row: plain elements, redrawn only when its own props change. */
const HeatMapRow = memo(function HeatMapRow({
  studyId,
  row,
  index,
  dayLabels,
  metric,
  validDayMinHours,
  activeCol,
  shownCol,
}: HeatMapRowProps) {
  const cells = [];
  for (let i = 0; i < dayLabels.length; i += 1) {
    const state = row.states[i] ?? 'not_collected';
    const wearMinutes = row.wearMinutes[i] ?? null;
    const steps = row.steps[i] ?? null;
    cells.push(
      <div
        key={i}
        role="gridcell"
        className={cellClass(state, metric, wearMinutes, steps, validDayMinHours)}
        aria-label={adherenceCellText({
          day: dayLabels[i] ?? '',
          state,
          metric,
          wearMinutes,
          steps,
          reason: row.reasons[String(i)],
        })}
        tabIndex={activeCol === i + 1 ? 0 : -1}
        data-r={index}
        data-c={i + 1}
        data-shown={shownCol === i + 1 ? 'true' : undefined}
      />,
    );
  }
  return (
    <div role="row" aria-rowindex={index + 2} className="hm-row">
      <div role="rowheader" className="hm-name">
        <Link
          to={`/researcher/study/${studyId}/participant/${row.id}`}
          tabIndex={activeCol === 0 ? 0 : -1}
          data-r={index}
          data-c={0}
          title={`${displayName(row)} (${row.participantId})`}
        >
          {displayName(row)}
        </Link>
      </div>
      {cells}
    </div>
  );
});
