import { describe, expect, it } from 'vitest';
import {
  CHART_HEIGHT,
  CHART_WIDTH,
  chartColors,
  type FundingChartInput,
  type FundingChartOptions,
  renderFundingChart,
} from '../../src/digest/index.js';
import { countColour, decode, hexToRgb, type Pixels } from './helpers/chart-pixels.js';

/** The chart's defects of issue 23, checked in the rendered PNG's pixels and the drawn texts' boxes. */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const start = Date.UTC(2026, 2, 1, 9, 0);
const berlinMidnight = (day: number) => Date.UTC(2026, 2, 1 + day, -1, 0);

interface Placed {
  readonly text: string;
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
}

/** Renders at scale 1 (CSS pixels) and records every text the chart draws, with its box. */
function render(overrides: Partial<FundingChartInput> = {}, options: FundingChartOptions = {}) {
  const texts: Placed[] = [];
  const png = renderFundingChart(
    {
      title: 'Solar Kiosk',
      at: start + 10 * DAY,
      points: Array.from({ length: 11 }, (_, day) => ({ at: start + day * DAY, funding: day * 800 })),
      goal: 10_000,
      milestones: [25, 50, 75, 100],
      currency: 'EUR',
      locale: 'en',
      timeZone: 'Europe/Berlin',
      ...overrides,
    },
    { scale: 1, onText: (placed: Placed) => texts.push(placed), ...options } as FundingChartOptions,
  );
  return { png, texts };
}

/** Day one: nine hours of history, one day of supporters. */
const dayOne: Partial<FundingChartInput> = {
  at: start + 9 * HOUR,
  points: Array.from({ length: 10 }, (_, h) => ({ at: start + h * HOUR, funding: h * 100 })),
  supportersPerDay: [{ dayStart: berlinMidnight(0), count: 12 }],
};

const barsRgb = hexToRgb(chartColors.bars);
const textRgb = hexToRgb(chartColors.text);
const titleRgb = hexToRgb(chartColors.title);
const trendRgb = hexToRgb(chartColors.trend);

/** Columns of the supporter strip that hold a bar. */
function barColumns(pixels: Pixels): number {
  let columns = 0;
  for (let x = 0; x < CHART_WIDTH; x++)
    if (countColour(pixels, barsRgb, { x0: x, y0: 380, x1: x + 1, y1: 400 }, 30) > 0) columns++;
  return columns;
}

/** Bands of consecutive rows that hold text-coloured pixels inside a box. */
function textBands(pixels: Pixels, box: { x0: number; x1: number; y0: number; y1: number }): number[][] {
  const bands: number[][] = [];
  for (let y = box.y0; y < box.y1; y++) {
    if (countColour(pixels, textRgb, { ...box, y0: y, y1: y + 1 }, 60) === 0) continue;
    const band = bands.at(-1);
    if (band && band.at(-1) === y - 1) band.push(y);
    else bands.push([y]);
  }
  return bands;
}

const overlap = (a: Placed, b: Placed) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

describe('the funding chart (issue 23)', () => {
  it("on day one the supporters-per-day strip is one bar of a bar's width, not the whole axis", async () => {
    const pixels = await decode(render(dayOne).png);
    const columns = barColumns(pixels);
    expect(columns).toBeGreaterThan(10);
    expect(columns).toBeLessThanOrEqual(48);
  });

  it("the strip's caption and the tallest bar's count never touch", async () => {
    // The busiest day first, right under the caption.
    const supportersPerDay = [12, 3, 4].map((count, day) => ({ dayStart: berlinMidnight(day), count }));
    const { png, texts } = render({ supportersPerDay });
    const bands = textBands(await decode(png), { x0: 64, x1: 150, y0: 322, y1: 372 });
    expect(bands.length, JSON.stringify(bands.map((b) => [b[0], b.at(-1)]))).toBeGreaterThanOrEqual(2);
    const caption = texts.find((t) => t.text === 'New supporters per day');
    const count = texts.find((t) => t.text === '12');
    expect(caption && count && overlap(caption, count)).toBe(false);
  });

  it.each([
    ['a ten-day campaign', {}],
    ['day one', dayOne],
    [
      'a trend to a far goal',
      { ...dayOne, projection: { kind: 'eta' as const, at: start + 40 * DAY, perDay: 200, basisDays: 0.4 } },
    ],
  ])('%s: every text is inside the image and none overlaps another', (_name, overrides) => {
    const { texts } = render({
      supportersPerDay: Array.from({ length: 11 }, (_, d) => ({ dayStart: berlinMidnight(d), count: 5 + d })),
      ...overrides,
    });
    expect(texts.length).toBeGreaterThan(10);
    for (const t of texts) {
      expect([t.text, t.left >= 0, t.right <= CHART_WIDTH, t.top >= 0, t.bottom <= CHART_HEIGHT]).toEqual([
        t.text,
        true,
        true,
        true,
        true,
      ]);
    }
    for (const [i, a] of texts.entries()) {
      for (const b of texts.slice(i + 1)) expect(overlap(a, b), `"${a.text}" and "${b.text}"`).toBe(false);
    }
  });

  it("the trend's goal day is on the axis: its dot on the goal line and its date under the strip", async () => {
    const projection = { kind: 'eta' as const, at: start + 35 * DAY, perDay: 280, basisDays: 7 };
    const { png, texts } = render({
      points: Array.from({ length: 11 }, (_, d) => ({ at: start + d * DAY, funding: d * 300 })),
      projection,
    });
    const pixels = await decode(png);
    // The dot: a disc of trend colour on the goal line, inside the plot.
    expect(
      countColour(pixels, trendRgb, { x0: 600, y0: 110, x1: CHART_WIDTH - 16, y1: 132 }, 30),
    ).toBeGreaterThan(40);
    const dateTick = texts.find((t) => t.text === 'Apr 5');
    expect(dateTick?.right).toBeLessThanOrEqual(CHART_WIDTH);
    expect(countColour(pixels, trendRgb, { x0: 0, y0: 405, x1: CHART_WIDTH, y1: 425 }, 40)).toBeGreaterThan(
      20,
    );
  });

  it('a goal day far beyond the history is named at the end of the trend, inside the image', async () => {
    const projection = { kind: 'eta' as const, at: start + 120 * DAY, perDay: 80, basisDays: 0.4 };
    const { png, texts } = render({ ...dayOne, projection });
    const beyond = texts.find((t) => t.text.includes('Jun 29'));
    expect(beyond?.right).toBeLessThanOrEqual(CHART_WIDTH);
    const pixels = await decode(png);
    expect(countColour(pixels, trendRgb, { x0: 600, y0: 60, x1: CHART_WIDTH, y1: 320 }, 30)).toBeGreaterThan(
      60,
    );
  });

  it('draws CJK names in a packaged CJK font, not as "NO GLYPH" boxes', async () => {
    const titleArea = { x0: 20, y0: 10, x1: 400, y1: 40 };
    // Boxes look alike whatever they stand for: two different names of seven characters draw the same pixels.
    const a = await decode(render({ title: '太陽光キオスク' }).png);
    const b = await decode(render({ title: '社区太阳能售货' }).png);
    const rows = (p: Pixels) =>
      Array.from({ length: 30 }, (_, y) =>
        countColour(p, titleRgb, { ...titleArea, y0: titleArea.y0 + y, y1: titleArea.y0 + y + 1 }, 30),
      );
    expect(rows(a)).not.toEqual(rows(b));
    expect(countColour(a, titleRgb, titleArea, 30)).toBeGreaterThan(300);
  });

  it('a name in a script no packaged font has gives way to the link caption, never boxes', async () => {
    const titleArea = { x0: 20, y0: 10, x1: CHART_WIDTH, y1: 40 };
    const hangul = await decode(render({ title: '태양광 키오스크', fallbackTitle: 'solar-kiosk' }).png);
    const caption = await decode(render({ title: 'solar-kiosk' }).png);
    expect(countColour(hangul, titleRgb, titleArea, 30)).toBe(countColour(caption, titleRgb, titleArea, 30));
  });

  it('a long title is cut to the width with an ellipsis, and the date stays', async () => {
    const title = `Solar Kiosk for the whole neighbourhood ${'and more '.repeat(20)}`;
    const { png, texts } = render({ title });
    const drawn = texts[0];
    expect(drawn?.text).toMatch(/… · Mar 11, 2026$/);
    expect(drawn?.right).toBeLessThanOrEqual(CHART_WIDTH - 24);
    const pixels = await decode(png);
    expect(countColour(pixels, titleRgb, { x0: CHART_WIDTH - 20, y0: 10, x1: CHART_WIDTH, y1: 40 }, 30)).toBe(
      0,
    );
  });
});
