import { createCanvas, GlobalFonts, type SKRSContext2D } from '@napi-rs/canvas';
import type { Locale } from '../core/index.js';
import { formatNumber } from '../core/index.js';
import { drawBitmapText, measureBitmapText } from './bitmap-font.js';
import { downsampleSeries, type SeriesPoint } from './downsample-series.js';

/** Fixed chart size in CSS pixels (at `scale` 1): wide enough for Discord's and Slack's previews. */
export const CHART_WIDTH = 800;
export const CHART_HEIGHT = 400;

/** Colours, exported so tests can find the curve and the goal line in the pixels. */
export const chartColors = {
  background: '#ffffff',
  line: '#2563eb',
  area: 'rgba(37, 99, 235, 0.14)',
  goal: '#dc2626',
  grid: '#e5e7eb',
  axis: '#9ca3af',
  text: '#374151',
} as const;

export interface FundingChartInput {
  /** Funding over time, any order; thinned to the chart's width. */
  readonly points: readonly SeriesPoint[];
  /** The funding goal; 0 or less draws no goal line. */
  readonly goal: number;
  readonly currency: string;
  readonly locale: Locale;
  /** IANA zone of the dates on the x axis. */
  readonly timeZone: string;
  /** Label of the goal line ("Goal", "Ziel"). */
  readonly goalLabel?: string;
  /** Shown in an empty chart. */
  readonly emptyLabel?: string;
}

export interface FundingChartOptions {
  /** Pixel density: 2 renders 1600×800 for retina screens. Default 1. */
  readonly scale?: number;
  /**
   * How labels are drawn. `auto` (default) uses an installed font and falls back to a
   * built-in bitmap font when the machine has none (slim Docker images); `bitmap`
   * forces the fallback; `none` draws no text at all.
   */
  readonly text?: 'auto' | 'font' | 'bitmap' | 'none';
  /** A .ttf/.otf file to use for labels, e.g. when the image has no system fonts. */
  readonly fontFile?: string;
}

const PREFERRED_FAMILIES = ['DejaVu Sans', 'Liberation Sans', 'Noto Sans', 'Arial', 'Helvetica', 'Roboto'];
const FONT_FILE_ALIAS = 'FundbotChartFont';

/** A font family the canvas can draw with, or undefined when the machine has none. */
export function chartFontFamily(fontFile?: string): string | undefined {
  if (fontFile) {
    // GlobalFonts is the native library's registry: registering the same file again is harmless.
    if (GlobalFonts.has(FONT_FILE_ALIAS) || GlobalFonts.registerFromPath(fontFile, FONT_FILE_ALIAS)) {
      return FONT_FILE_ALIAS;
    }
  }
  const families = GlobalFonts.families.map((f) => f.family);
  return (
    PREFERRED_FAMILIES.find((f) => families.includes(f)) ??
    families.find((f) => /sans/i.test(f) && !/mono|math/i.test(f)) ??
    families[0]
  );
}

interface TextPainter {
  draw(text: string, x: number, y: number, align: 'left' | 'right' | 'center', color: string): void;
  width(text: string): number;
}

function fontPainter(ctx: SKRSContext2D, family: string): TextPainter {
  ctx.font = `13px "${family}"`;
  ctx.textBaseline = 'middle';
  return {
    draw(text, x, y, align, color) {
      ctx.fillStyle = color;
      ctx.textAlign = align;
      ctx.fillText(text, x, y);
    },
    width: (text) => ctx.measureText(text).width,
  };
}

function bitmapPainter(ctx: SKRSContext2D): TextPainter {
  return {
    draw(text, x, y, align, color) {
      const w = measureBitmapText(text);
      const left = align === 'left' ? x : align === 'right' ? x - w : x - w / 2;
      drawBitmapText(ctx, text, left, y, color);
    },
    width: (text) => measureBitmapText(text),
  };
}

const silentPainter: TextPainter = { draw: () => {}, width: () => 0 };

/** A "nice" step (1, 2, 2.5, 5 × 10^n) so that about `count` steps cover `range`. */
function niceStep(range: number, count: number): number {
  const rough = range / count;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const fraction = rough / magnitude;
  const nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 2.5 ? 2.5 : fraction <= 5 ? 5 : 10;
  return nice * magnitude;
}

const intlLocale: Readonly<Record<Locale, string>> = { en: 'en-US', de: 'de-DE' };

/** Short money labels for the axis: "€12,500", "€1.5M", "12.500 €". */
function axisMoney(amount: number, currency: string, locale: Locale, step: number): string {
  const compact = Math.abs(amount) >= 1_000_000;
  try {
    return new Intl.NumberFormat(intlLocale[locale], {
      style: 'currency',
      currency,
      notation: compact ? 'compact' : 'standard',
      minimumFractionDigits: 0,
      maximumFractionDigits: compact || step < 1 ? 2 : 0,
    }).format(amount);
  } catch {
    return `${formatNumber(amount, locale, step < 1 ? 2 : 0)} ${currency.slice(0, 8)}`;
  }
}

function dateLabel(at: number, locale: Locale, timeZone: string, withTime: boolean): string {
  return new Intl.DateTimeFormat(intlLocale[locale], {
    month: 'short',
    day: 'numeric',
    ...(withTime ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' as const } : {}),
    timeZone,
  }).format(at);
}

/**
 * Draws funding over the campaign as a PNG: a filled line in blue, the goal as a
 * dashed red line with its amount, money on the y axis (from 0), dates on the x
 * axis. 800×400 pixels at scale 1. Handles no points (axes and "no data"), one
 * point (a dot), a flat series, funding above the goal and a goal of 0.
 */
export function renderFundingChart(input: FundingChartInput, options: FundingChartOptions = {}): Uint8Array {
  const scale = options.scale ?? 1;
  const canvas = createCanvas(Math.round(CHART_WIDTH * scale), Math.round(CHART_HEIGHT * scale));
  const ctx = canvas.getContext('2d');
  ctx.scale(scale, scale);
  ctx.fillStyle = chartColors.background;
  ctx.fillRect(0, 0, CHART_WIDTH, CHART_HEIGHT);

  const mode = options.text ?? 'auto';
  const family = mode === 'auto' || mode === 'font' ? chartFontFamily(options.fontFile) : undefined;
  const text: TextPainter =
    mode === 'none'
      ? silentPainter
      : family
        ? fontPainter(ctx, family)
        : mode === 'font'
          ? silentPainter
          : bitmapPainter(ctx);

  const points = downsampleSeries(input.points, CHART_WIDTH);
  const goal = Number.isFinite(input.goal) && input.goal > 0 ? input.goal : 0;
  const maxFunding = Math.max(0, ...points.map((p) => p.funding));
  const minFunding = Math.min(0, ...points.map((p) => p.funding));
  const top = Math.max(maxFunding, goal) * 1.08 || 100;
  const yStep = niceStep(top - minFunding, 5);
  const yMax = Math.ceil(top / yStep) * yStep;
  const yMin = Math.floor(minFunding / yStep) * yStep;

  // Left margin fits the widest money label.
  const yLabels: { value: number; label: string }[] = [];
  for (let v = yMin; v <= yMax + yStep / 2; v += yStep) {
    yLabels.push({ value: v, label: axisMoney(v, input.currency, input.locale, yStep) });
  }
  const labelWidth = Math.max(0, ...yLabels.map((l) => text.width(l.label)));
  const plot = {
    left: Math.max(24, Math.ceil(labelWidth) + 16),
    right: CHART_WIDTH - 24,
    top: 24,
    bottom: CHART_HEIGHT - 36,
  };
  const first = points[0];
  const last = points[points.length - 1];
  // One point or a zero-length range: centre it in a one-day window.
  const tMin = first && last && last.at > first.at ? first.at : (first?.at ?? 0) - 12 * 3_600_000;
  const tMax = first && last && last.at > first.at ? last.at : (first?.at ?? 0) + 12 * 3_600_000;
  const x = (at: number) => plot.left + ((at - tMin) / (tMax - tMin)) * (plot.right - plot.left);
  const y = (value: number) => plot.bottom - ((value - yMin) / (yMax - yMin)) * (plot.bottom - plot.top);

  // Grid and y labels.
  ctx.lineWidth = 1;
  for (const { value, label } of yLabels) {
    const gy = Math.round(y(value)) + 0.5;
    ctx.strokeStyle = value === 0 ? chartColors.axis : chartColors.grid;
    ctx.beginPath();
    ctx.moveTo(plot.left, gy);
    ctx.lineTo(plot.right, gy);
    ctx.stroke();
    text.draw(label, plot.left - 8, gy, 'right', chartColors.text);
  }

  // X axis dates: five evenly spaced ticks, with the time of day when the range is short.
  if (first) {
    const withTime = tMax - tMin < 2 * 24 * 3_600_000;
    let previous = '';
    for (let i = 0; i <= 4; i++) {
      const at = tMin + ((tMax - tMin) * i) / 4;
      const label = dateLabel(at, input.locale, input.timeZone, withTime);
      const tx = x(at);
      ctx.strokeStyle = chartColors.axis;
      ctx.beginPath();
      ctx.moveTo(Math.round(tx) + 0.5, plot.bottom);
      ctx.lineTo(Math.round(tx) + 0.5, plot.bottom + 5);
      ctx.stroke();
      if (label !== previous) {
        const align = i === 0 ? 'left' : i === 4 ? 'right' : 'center';
        text.draw(label, tx, plot.bottom + 18, align, chartColors.text);
      }
      previous = label;
    }
  } else {
    text.draw(
      input.emptyLabel ?? 'No data yet',
      (plot.left + plot.right) / 2,
      (plot.top + plot.bottom) / 2,
      'center',
      chartColors.text,
    );
  }

  // The funding curve: a translucent area under a solid line.
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
  }

  // The goal: a dashed line across the plot with its amount above the right end.
  if (goal > 0) {
    const gy = Math.round(y(goal)) + 0.5;
    ctx.setLineDash([10, 6]);
    ctx.strokeStyle = chartColors.goal;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(plot.left, gy);
    ctx.lineTo(plot.right, gy);
    ctx.stroke();
    ctx.setLineDash([]);
    const label = `${input.goalLabel ?? 'Goal'} ${axisMoney(goal, input.currency, input.locale, yStep < 1 ? 0.5 : 1)}`;
    text.draw(label, plot.right, gy - 12, 'right', chartColors.goal);
  }

  return canvas.toBuffer('image/png');
}
