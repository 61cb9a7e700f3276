import type { SKRSContext2D } from '@napi-rs/canvas';
import { formatNumber, type Locale } from '../core/index.js';
import type { TextPainter } from './chart-text.js';

const DAY_MS = 24 * 3_600_000;

/** A bar is never wider than this (CSS pixels): on day one a day spans the whole axis. */
export const MAX_BAR_WIDTH = 48;
/** Room under the strip's caption for the tallest bar's count, so the two never overlap. */
const LABEL_ROOM = 16;

export interface StripArea {
  readonly top: number;
  readonly bottom: number;
  readonly left: number;
  readonly right: number;
}

export interface StripInput {
  readonly supportersPerDay?: readonly { readonly dayStart: number; readonly count: number }[];
  /** The chart's time: today's bar ends here, the day is not over yet. */
  readonly at: number;
  readonly locale: Locale;
}

/**
 * One bar per local day (net new supporters, drops count as 0), scaled to the busiest
 * day, under a caption. Each bar is centred in the part of its day the axis shows and at
 * most {@link MAX_BAR_WIDTH} wide; the bars start {@link LABEL_ROOM} below the caption
 * so the tallest bar's count stays clear of it.
 */
export function drawSupporterStrip(
  ctx: SKRSContext2D,
  text: TextPainter,
  input: StripInput,
  area: StripArea,
  x: (at: number) => number,
  caption: string,
  colors: { readonly axis: string; readonly bars: string },
): void {
  ctx.strokeStyle = colors.axis;
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.moveTo(area.left, area.bottom + 0.5);
  ctx.lineTo(area.right, area.bottom + 0.5);
  ctx.stroke();
  const days = input.supportersPerDay ?? [];
  const busiest = Math.max(0, ...days.map((d) => d.count));
  text.draw(caption, area.left + 4, area.top - 6, { size: 11 });
  if (busiest <= 0) return;
  const barTop = area.top + LABEL_ROOM;
  for (const day of days) {
    if (day.count <= 0) continue;
    const shownFrom = Math.max(area.left, x(day.dayStart));
    const shownTo = Math.min(area.right, x(Math.min(day.dayStart + DAY_MS, input.at)));
    const width = Math.min(MAX_BAR_WIDTH, shownTo - shownFrom - 2);
    if (width < 1) continue;
    const left = (shownFrom + shownTo - width) / 2;
    const height = Math.max(1, ((area.bottom - barTop) * day.count) / busiest);
    ctx.fillStyle = colors.bars;
    ctx.fillRect(left, area.bottom - height, width, height);
    if (width >= 18) {
      text.draw(formatNumber(day.count, input.locale), left + width / 2, area.bottom - height - 6, {
        align: 'center',
        size: 10,
      });
    }
  }
}
