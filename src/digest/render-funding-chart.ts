import type { SKRSContext2D } from '@napi-rs/canvas';
import type { Locale } from '../core/index.js';
import { formatDate, formatDayMonth, formatMoney, formatPercent, percentOfGoal } from '../core/index.js';
import { canvasModule } from './canvas-module.js';
import { axisMoney, dateLabel, niceStep } from './chart-scale.js';
import { drawSupporterStrip } from './chart-strip.js';
import { fontPainter, type PlacedText, silentPainter } from './chart-text.js';
import { downsampleSeries, type SeriesPoint } from './downsample-series.js';
import { digestText } from './i18n.js';

/** Chart size in CSS pixels; rendered at {@link FundingChartOptions.scale} (default 2) times that. */
export const CHART_WIDTH = 800;
export const CHART_HEIGHT = 470;

const DAY_MS = 24 * 3_600_000;

/** Colours, exported so tests can find the curve, goal, trend and bars in the pixels. */
export const chartColors = {
  background: '#ffffff',
  line: '#2563eb',
  area: 'rgba(37, 99, 235, 0.14)',
  goal: '#dc2626',
  milestone: '#a855f7',
  trend: '#f59e0b',
  bars: '#10b981',
  grid: '#e5e7eb',
  axis: '#9ca3af',
  text: '#374151',
  title: '#111827',
} as const;

/** The last 7 days' rate, extended to the goal: `eta` when funding grows, `never` when it does not. */
export type ChartProjection =
  | { readonly kind: 'eta'; readonly at: number; readonly perDay: number; readonly basisDays: number }
  | { readonly kind: 'never' };

export interface FundingChartInput {
  /** The project's name, plain text. */
  readonly title: string;
  /** Shown instead of `title` when a letter of it is in no packaged font (the project's link caption). */
  readonly fallbackTitle?: string;
  /** Epoch ms the chart is for: its date is in the title, and the curve ends here. */
  readonly at: number;
  /** Funding over time, any order; thinned to the chart's width. */
  readonly points: readonly SeriesPoint[];
  /** The funding goal; 0 or less draws no goal line, milestones or projection. */
  readonly goal: number;
  /** Milestone levels in percent of the goal; 100 is the goal line itself. */
  readonly milestones?: readonly number[];
  /** Net new supporters per local day, drawn as a bar strip under the curve. */
  readonly supportersPerDay?: readonly { readonly dayStart: number; readonly count: number }[];
  readonly projection?: ChartProjection;
  readonly currency: string;
  readonly locale: Locale;
  /** IANA zone of the dates. */
  readonly timeZone: string;
}

export interface FundingChartOptions {
  /** Pixel density: 2 (default) renders 1600×940 for high-density screens. */
  readonly scale?: number;
  /** `none` draws no text (tests that only look at shapes). Default `font`: the packaged font. */
  readonly text?: 'font' | 'none';
  /** Hears every text drawn, with its box in CSS pixels: for layout checks. */
  readonly onText?: (placed: PlacedText) => void;
}

/**
 * Draws a project's funding as a PNG worth opening: a title with the project's
 * name and the date; the funding curve (blue) over the campaign with the goal
 * (dashed red) and the milestone levels (dotted violet); the last 7 days' trend
 * (dashed amber) extended to the goal with the estimated day, or "not reached at
 * this pace"; and a bar strip of new supporters per day under the curve, on the
 * same time axis. Text in the packaged Inter font, never a system font.
 * 800×470 CSS pixels, rendered at 2× by default (about 60-90 kB of PNG).
 */
export function renderFundingChart(input: FundingChartInput, options: FundingChartOptions = {}): Uint8Array {
  const scale = options.scale ?? 2;
  const canvas = canvasModule().createCanvas(
    Math.round(CHART_WIDTH * scale),
    Math.round(CHART_HEIGHT * scale),
  );
  const ctx = canvas.getContext('2d');
  ctx.scale(scale, scale);
  ctx.fillStyle = chartColors.background;
  ctx.fillRect(0, 0, CHART_WIDTH, CHART_HEIGHT);
  const text = options.text === 'none' ? silentPainter : fontPainter(ctx, chartColors.text, options.onText);
  const t = digestText(input.locale);
  const { locale, currency, timeZone } = input;

  const points = downsampleSeries(input.points, CHART_WIDTH);
  const goal = Number.isFinite(input.goal) && input.goal > 0 ? input.goal : 0;
  const first = points[0];
  const last = points[points.length - 1];
  const current = last?.funding ?? 0;

  // Header: the project and the date, then where it stands. A name no packaged font can draw
  // (Hangul, Arabic) gives way to the link caption; a long one is cut to the width, the date kept.
  const date = formatDate(input.at, locale, timeZone);
  const name = text.drawable(input.title) || text.drawable(input.fallbackTitle ?? '') || '';
  const room = CHART_WIDTH - 48 - text.width(t.chartTitle('', date), 18, true);
  text.draw(t.chartTitle(text.fit(name, room, 18, true), date), 24, 24, {
    size: 18,
    bold: true,
    color: chartColors.title,
  });
  const money = (n: number) => formatMoney(n, currency, locale);
  text.draw(
    goal > 0
      ? t.totalOfGoal(money(current), money(goal), formatPercent(percentOfGoal(current, goal), locale))
      : t.totalNoGoal(money(current)),
    24,
    48,
    { size: 12 },
  );

  // Time range: the campaign so far, plus room for the projection to reach the goal.
  const projection = goal > 0 && last && current < goal ? input.projection : undefined;
  const span = first && last && last.at > first.at ? last.at - first.at : DAY_MS;
  const tMin = first && last && last.at > first.at ? first.at : (first?.at ?? input.at) - DAY_MS / 2;
  let tMax = first && last && last.at > first.at ? last.at : (first?.at ?? input.at) + DAY_MS / 2;
  // The estimated day is on the axis when it lies within three times the history (at least two
  // weeks) ahead; further out the trend runs to the edge and says where it leads there.
  const horizon = Math.max(3 * span, 14 * DAY_MS);
  const etaOnAxis = projection?.kind === 'eta' && projection.at - tMax <= horizon;
  if (projection?.kind === 'eta') {
    tMax = etaOnAxis ? projection.at + (projection.at - tMin) * 0.04 : tMax + horizon;
  } else if (projection?.kind === 'never') tMax += span * 0.15;
  const trendAt = (at: number) =>
    projection?.kind === 'eta' && last ? current + ((at - last.at) / DAY_MS) * projection.perDay : 0;

  const maxFunding = Math.max(0, ...points.map((p) => p.funding), trendAt(tMax));
  const minFunding = Math.min(0, ...points.map((p) => p.funding));
  const top = Math.max(maxFunding, goal) * 1.08 || 100;
  const yStep = niceStep(top - minFunding, 5);
  const yMax = Math.ceil(top / yStep) * yStep;
  const yMin = Math.floor(minFunding / yStep) * yStep;
  const yLabels: { value: number; label: string }[] = [];
  for (let v = yMin; v <= yMax + yStep / 2; v += yStep) {
    yLabels.push({ value: v, label: axisMoney(v, currency, locale, yStep) });
  }
  const labelWidth = Math.max(0, ...yLabels.map((l) => text.width(l.label)));
  const plot = {
    left: Math.max(24, Math.ceil(labelWidth) + 16),
    right: CHART_WIDTH - 24,
    top: 72,
    bottom: 318,
  };
  const strip = { top: 340, bottom: 402 };
  const x = (at: number) => plot.left + ((at - tMin) / (tMax - tMin)) * (plot.right - plot.left);
  const y = (value: number) => plot.bottom - ((value - yMin) / (yMax - yMin)) * (plot.bottom - plot.top);

  ctx.lineWidth = 1;
  for (const { value, label } of yLabels) {
    const gy = Math.round(y(value)) + 0.5;
    ctx.strokeStyle = value === 0 ? chartColors.axis : chartColors.grid;
    line(ctx, plot.left, gy, plot.right, gy);
    text.draw(label, plot.left - 8, gy, { align: 'right' });
  }

  // Milestones below the top of the scale, each a dotted line labelled with its percentage.
  if (goal > 0) {
    for (const level of input.milestones ?? []) {
      const value = (goal * level) / 100;
      if (level === 100 || value > yMax) continue;
      const my = Math.round(y(value)) + 0.5;
      ctx.setLineDash([2, 4]);
      ctx.strokeStyle = chartColors.milestone;
      ctx.lineWidth = 1.5;
      line(ctx, plot.left, my, plot.right, my);
      ctx.setLineDash([]);
      text.draw(formatPercent(level, locale), plot.left + 6, my - 8, {
        color: chartColors.milestone,
        size: 11,
      });
    }
  }

  // The funding curve: a translucent area under a solid line, a dot at today's value.
  if (points.length > 1) {
    ctx.beginPath();
    ctx.moveTo(x(points[0]!.at), y(0));
    for (const p of points) ctx.lineTo(x(p.at), y(p.funding));
    ctx.lineTo(x(points[points.length - 1]!.at), y(0));
    ctx.closePath();
    ctx.fillStyle = chartColors.area;
    ctx.fill();
    ctx.beginPath();
    ctx.moveTo(x(points[0]!.at), y(points[0]!.funding));
    for (const p of points.slice(1)) ctx.lineTo(x(p.at), y(p.funding));
    ctx.strokeStyle = chartColors.line;
    ctx.lineWidth = 3;
    ctx.lineJoin = 'round';
    ctx.stroke();
  }
  if (last) {
    ctx.beginPath();
    ctx.arc(x(last.at), y(last.funding), 5, 0, 2 * Math.PI);
    ctx.fillStyle = chartColors.line;
    ctx.fill();
  } else {
    text.draw(t.chartNoData, (plot.left + plot.right) / 2, (plot.top + plot.bottom) / 2, { align: 'center' });
  }

  if (goal > 0) {
    const gy = Math.round(y(goal)) + 0.5;
    ctx.setLineDash([10, 6]);
    ctx.strokeStyle = chartColors.goal;
    ctx.lineWidth = 2;
    line(ctx, plot.left, gy, plot.right, gy);
    ctx.setLineDash([]);
    const label = `${t.chartGoal} ${axisMoney(goal, currency, locale, yStep < 1 ? 0.5 : 1)}`;
    text.draw(label, plot.right, gy - 10, { align: 'right', color: chartColors.goal, bold: true });
  }

  // The trend: the last 7 days' line through today's value, on to the goal (or the chart's edge).
  let trendLabel: string | undefined;
  if (projection?.kind === 'eta' && last) {
    const from = last.at - projection.basisDays * DAY_MS;
    const to = Math.min(projection.at, tMax);
    ctx.setLineDash([6, 5]);
    ctx.strokeStyle = chartColors.trend;
    ctx.lineWidth = 2.5;
    line(ctx, x(Math.max(from, tMin)), y(trendAt(Math.max(from, tMin))), x(to), y(trendAt(to)));
    ctx.setLineDash([]);
    if (etaOnAxis) {
      ctx.beginPath();
      ctx.arc(x(projection.at), y(goal), 5, 0, 2 * Math.PI);
      ctx.fillStyle = chartColors.trend;
      ctx.fill();
    } else {
      // Beyond the axis: the line ends in an arrow that names the day it leads to.
      const endY = y(trendAt(tMax));
      ctx.beginPath();
      ctx.moveTo(plot.right, endY);
      ctx.lineTo(plot.right - 9, endY - 5);
      ctx.lineTo(plot.right - 9, endY + 5);
      ctx.closePath();
      ctx.fillStyle = chartColors.trend;
      ctx.fill();
      const beyond = t.chartEtaBeyond(formatDayMonth(projection.at, locale, timeZone));
      text.draw(beyond, plot.right - 12, endY + 14, { align: 'right', color: chartColors.trend, bold: true });
    }
    trendLabel = t.chartEta(formatDate(projection.at, locale, timeZone));
  } else if (projection?.kind === 'never') {
    trendLabel = t.chartNotAtThisPace;
  }

  drawSupporterStrip(
    ctx,
    text,
    input,
    { ...strip, left: plot.left, right: plot.right },
    x,
    t.chartSupportersPerDay,
    chartColors,
  );

  // Dates under the strip, on the shared time axis; the estimated day has a tick of its own.
  const withTime = tMax - tMin < 2 * DAY_MS;
  const taken: { left: number; right: number }[] = [];
  const tick = (at: number, label: string, align: 'left' | 'center' | 'right', color: string) => {
    const tx = Math.round(x(at)) + 0.5;
    const w = text.width(label) + 8;
    const left = align === 'left' ? tx : align === 'right' ? tx - w : tx - w / 2;
    if (taken.some((b) => left < b.right && left + w > b.left)) return;
    taken.push({ left, right: left + w });
    ctx.strokeStyle = color;
    ctx.lineWidth = 1;
    line(ctx, tx, strip.bottom, tx, strip.bottom + 5);
    text.draw(label, tx, strip.bottom + 16, { align, color });
  };
  if (projection?.kind === 'eta' && etaOnAxis) {
    const at = projection.at;
    tick(
      at,
      formatDayMonth(at, locale, timeZone),
      x(at) > plot.right - 40 ? 'right' : 'center',
      chartColors.trend,
    );
  }
  let previous = '';
  for (let i = 0; i <= 4; i++) {
    const at = tMin + ((tMax - tMin) * i) / 4;
    const label = dateLabel(at, locale, timeZone, withTime);
    if (label !== previous)
      tick(at, label, i === 0 ? 'left' : i === 4 ? 'right' : 'center', chartColors.axis);
    previous = label;
  }

  // Legend: the curve and where the trend leads (the strip carries its own label).
  let lx = 24;
  const ly = CHART_HEIGHT - 26;
  const legend: [string, string, number[]][] = [[t.chartFunding, chartColors.line, []]];
  if (trendLabel) legend.push([`${t.chartTrend}: ${trendLabel}`, chartColors.trend, [6, 5]]);
  for (const [label, color, dash] of legend) {
    // A label that would run off the edge is left out rather than cut.
    if (lx + 28 + text.width(label) > CHART_WIDTH - 16) break;
    ctx.setLineDash(dash);
    ctx.strokeStyle = color;
    ctx.lineWidth = 3;
    line(ctx, lx, ly, lx + 22, ly);
    ctx.setLineDash([]);
    text.draw(label, lx + 28, ly, { size: 12 });
    lx += 28 + text.width(label) + 24;
  }

  return canvas.toBuffer('image/png');
}

function line(ctx: SKRSContext2D, x1: number, y1: number, x2: number, y2: number): void {
  ctx.beginPath();
  ctx.moveTo(x1, y1);
  ctx.lineTo(x2, y2);
  ctx.stroke();
}
