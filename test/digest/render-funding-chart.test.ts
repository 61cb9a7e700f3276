import { writeFile } from 'node:fs/promises';
import { GlobalFonts } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import {
  buildDigest,
  CHART_FONT_FAMILY,
  CHART_HEIGHT,
  CHART_WIDTH,
  chartColors,
  chartFontFiles,
  type FundingChartInput,
  type FundingChartOptions,
  fundingChartInput,
  registerChartFont,
  renderFundingChart,
} from '../../src/digest/index.js';
import { FakeReadModel } from '../support/fake-read-model.js';
import { scriptedCampaign } from './campaign-fixtures.js';
import { countColour, decode, hexToRgb, type Pixels } from './helpers/chart-pixels.js';

const DAY = 24 * 60 * 60 * 1000;
const start = Date.UTC(2026, 2, 1, 9, 0);

/** Shape tests draw at scale 1, so their coordinates are CSS pixels. */
function chart(overrides: Partial<FundingChartInput> = {}, options: FundingChartOptions = {}): Uint8Array {
  return renderFundingChart(
    {
      title: 'Solar Kiosk',
      at: start + 10 * DAY,
      points: Array.from({ length: 11 }, (_, day) => ({ at: start + day * DAY, funding: day * 800 })),
      goal: 10_000,
      currency: 'EUR',
      locale: 'en',
      timeZone: 'Europe/Berlin',
      ...overrides,
    },
    { scale: 1, ...options },
  );
}

const lineRgb = hexToRgb(chartColors.line);
const goalRgb = hexToRgb(chartColors.goal);

/** Rows (y) in column x whose pixel has the colour. */
function rowsWithColour(pixels: Pixels, x: number, colour: readonly number[]): number[] {
  const rows: number[] = [];
  for (let y = 0; y < pixels.height; y++) if (pixels.is(x, y, colour)) rows.push(y);
  return rows;
}

/** For each row, about how many pixels have the colour (every fourth column: enough for lines, and fast). */
function colourCountByRow(pixels: Pixels, colour: readonly number[]): number[] {
  const counts: number[] = [];
  for (let y = 0; y < pixels.height; y++) {
    let count = 0;
    for (let x = 0; x < pixels.width; x += 4) if (pixels.is(x, y, colour)) count += 4;
    counts.push(count);
  }
  return counts;
}

function goalRow(pixels: Pixels): { row: number; count: number } {
  const counts = colourCountByRow(pixels, goalRgb);
  const count = Math.max(...counts);
  return { row: counts.indexOf(count), count };
}

describe('renderFundingChart', () => {
  it('renders at twice the CSS size by default, for high-density screens', () => {
    const png = renderFundingChart({
      title: 'Solar Kiosk',
      at: start,
      points: [],
      goal: 0,
      currency: 'EUR',
      locale: 'en',
      timeZone: 'UTC',
    });
    expect(Array.from(png.subarray(0, 8))).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(Buffer.from(png.subarray(12, 16)).toString('ascii')).toBe('IHDR');
    const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
    expect([view.getUint32(16), view.getUint32(20)]).toEqual([2 * CHART_WIDTH, 2 * CHART_HEIGHT]);
    expect([CHART_WIDTH, CHART_HEIGHT]).toEqual([800, 470]);
  });

  it('draws a rising series lower on the left than on the right', async () => {
    const pixels = await decode(chart());
    const left = rowsWithColour(pixels, 150, lineRgb);
    const right = rowsWithColour(pixels, 700, lineRgb);
    expect(left.length).toBeGreaterThan(0);
    expect(right.length).toBeGreaterThan(0);
    // Lower on screen = larger y.
    expect(Math.min(...left)).toBeGreaterThan(Math.max(...right) + 50);
  });

  it('draws the goal as a dashed line on one row across the plot, above the curve below the goal', async () => {
    const pixels = await decode(chart());
    const { row, count } = goalRow(pixels);
    expect(count).toBeGreaterThan(300);
    // Dashes reach from the left third to the right third, all on that row.
    for (const third of [0, 1, 2]) {
      let hits = 0;
      for (let x = 100 + third * 220; x < 100 + (third + 1) * 220; x++) {
        if (pixels.is(x, row, goalRgb)) hits++;
      }
      expect(hits).toBeGreaterThan(60);
    }
    // The curve ends at 8,000, below the 10,000 goal: its highest pixel is lower on screen.
    expect(Math.min(...rowsWithColour(pixels, 760, lineRgb))).toBeGreaterThan(row);
  });

  it('puts the curve above the goal line when funding exceeds the goal', async () => {
    const pixels = await decode(chart({ goal: 4_000 }));
    const { row } = goalRow(pixels);
    expect(Math.max(...rowsWithColour(pixels, 760, lineRgb))).toBeLessThan(row);
  });

  it('draws no goal line for a goal of 0', async () => {
    const pixels = await decode(chart({ goal: 0 }));
    expect(goalRow(pixels).count).toBeLessThan(20);
    expect(rowsWithColour(pixels, 400, lineRgb).length).toBeGreaterThan(0);
  });

  it('draws a flat series as a horizontal line', async () => {
    const points = Array.from({ length: 5 }, (_, day) => ({ at: start + day * DAY, funding: 2_000 }));
    const pixels = await decode(chart({ points }));
    const left = rowsWithColour(pixels, 150, lineRgb);
    const right = rowsWithColour(pixels, 700, lineRgb);
    expect(left.length).toBeGreaterThan(0);
    expect(left).toEqual(right);
  });

  it('draws a single point as a dot and no points as an empty chart with the goal', async () => {
    const one = await decode(chart({ points: [{ at: start, funding: 1_000 }] }));
    const centre = Math.round((CHART_WIDTH + 40) / 2);
    let dot = 0;
    for (let x = centre - 60; x < centre + 60; x++) dot += rowsWithColour(one, x, lineRgb).length;
    expect(dot).toBeGreaterThan(20);

    const none = await decode(chart({ points: [] }));
    expect(goalRow(none).count).toBeGreaterThan(300);
    let line = 0;
    for (let x = 0; x < CHART_WIDTH; x += 5)
      line += rowsWithColour(none, x, lineRgb).filter((y) => y < 330).length; // the legend swatch is below;
    expect(line).toBe(0);
  });

  it('survives all-zero funding with no goal and non-finite values', () => {
    const png = chart({
      goal: 0,
      points: [
        { at: start, funding: 0 },
        { at: start + DAY, funding: Number.NaN },
        { at: start + 2 * DAY, funding: 0 },
      ],
    });
    expect(png.length).toBeGreaterThan(1000);
  });

  it('thins thousands of points without losing the shape', async () => {
    const points = Array.from({ length: 40_000 }, (_, i) => ({ at: start + i * 60_000, funding: i }));
    const pixels = await decode(chart({ points, goal: 50_000 }));
    expect(Math.min(...rowsWithColour(pixels, 150, lineRgb))).toBeGreaterThan(
      Math.max(...rowsWithColour(pixels, 700, lineRgb)),
    );
  });

  it('draws the configured milestones as lines below the scale top, not the goal twice', async () => {
    const milestoneRgb = hexToRgb(chartColors.milestone);
    const rows = (pixels: Pixels) => {
      const found: number[] = [];
      for (let y = 60; y < 330; y++) {
        let count = 0;
        for (let x = 100; x < 760; x += 2) if (pixels.is(x, y, milestoneRgb, 30)) count++;
        if (count > 60 && found.at(-1) !== y - 1) found.push(y);
      }
      return found;
    };
    // 25, 50, 75 % drawn; 100 % is the goal line; 150 % is above the scale (12,000).
    expect(rows(await decode(chart({ milestones: [25, 50, 75, 100, 150] })))).toHaveLength(3);
    expect(rows(await decode(chart({ milestones: [50] })))).toHaveLength(1);
    expect(rows(await decode(chart()))).toHaveLength(0);
  });

  it('extends the last 7 days trend to the goal, and marks the day it is reached', async () => {
    const trendRgb = hexToRgb(chartColors.trend);
    const plotArea = { x0: 0, y0: 60, x1: CHART_WIDTH, y1: 320 };
    const withTrend = await decode(
      chart({ projection: { kind: 'eta', at: start + 12.5 * DAY, perDay: 800, basisDays: 7 } }),
    );
    const without = await decode(chart());
    expect(countColour(without, trendRgb, plotArea, 30)).toBe(0);
    // Past the last point (now at the chart's ~80 %), only the trend is drawn.
    expect(countColour(withTrend, trendRgb, { ...plotArea, x0: 660 }, 30)).toBeGreaterThan(100);
    expect(countColour(withTrend, trendRgb, plotArea, 30)).toBeGreaterThan(400);
  });

  it('says "not reached at this pace" without a trend line when funding did not grow', async () => {
    const trendRgb = hexToRgb(chartColors.trend);
    const never = await decode(chart({ projection: { kind: 'never' } }));
    const none = await decode(chart());
    expect(countColour(never, trendRgb, { x0: 0, y0: 60, x1: CHART_WIDTH, y1: 320 }, 30)).toBe(0);
    // The legend carries the trend's swatch and its words; without a projection it has neither.
    const legend = { x0: 0, y0: CHART_HEIGHT - 40, x1: CHART_WIDTH, y1: CHART_HEIGHT };
    expect(countColour(never, trendRgb, legend, 30)).toBeGreaterThan(10);
    expect(countColour(none, trendRgb, legend, 30)).toBe(0);
  });

  it('draws a bar per day of new supporters under the curve, the busiest day tallest', async () => {
    const barsRgb = hexToRgb(chartColors.bars);
    const dayStart = (day: number) => Date.UTC(2026, 2, 1 + day, -1, 0); // Berlin midnight
    const pixels = await decode(
      chart({
        supportersPerDay: [
          { dayStart: dayStart(2), count: 5 },
          { dayStart: dayStart(6), count: 20 },
        ],
      }),
    );
    const columnHeight = (x: number) =>
      countColour(pixels, barsRgb, { x0: x, y0: 330, x1: x + 1, y1: 410 }, 30);
    const xOf = (day: number) => {
      // Find the bar's columns: the strip spans the plot's time axis (1 Mar to 11 Mar).
      let best = 0;
      let bestX = 0;
      for (let x = 0; x < CHART_WIDTH; x++) {
        const h = columnHeight(x);
        if (h > best && (day === 6 ? x > 400 : x < 400)) [best, bestX] = [h, x];
      }
      return { x: bestX, height: best };
    };
    const small = xOf(2);
    const big = xOf(6);
    expect(small.height).toBeGreaterThan(5);
    expect(big.height).toBeGreaterThan(small.height * 3);
    expect(big.x).toBeGreaterThan(small.x);
  });

  it('is not blank: many colours and a real spread of brightness', async () => {
    const pixels = await decode(
      chart({ milestones: [25, 50, 75], projection: { kind: 'never' }, supportersPerDay: [] }, { scale: 2 }),
    );
    const colours = new Set<number>();
    let sum = 0;
    let sumSq = 0;
    const n = pixels.width * pixels.height;
    for (let i = 0; i < pixels.data.length; i += 4) {
      colours.add((pixels.data[i]! << 16) | (pixels.data[i + 1]! << 8) | pixels.data[i + 2]!);
      const lum = (pixels.data[i]! + pixels.data[i + 1]! + pixels.data[i + 2]!) / 3;
      sum += lum;
      sumSq += lum * lum;
    }
    expect(colours.size).toBeGreaterThan(50);
    expect(sumSq / n - (sum / n) ** 2).toBeGreaterThan(100);
  });
});

describe('chart text', () => {
  it('uses only the font packaged as @fontsource/inter, registered with the canvas under its own name', () => {
    const files = chartFontFiles();
    expect(files.regular).toMatch(/node_modules[\\/]@fontsource[\\/]inter[\\/]files[\\/].+\.woff2$/);
    expect(registerChartFont()).toBe(CHART_FONT_FAMILY);
    const family = GlobalFonts.families.find((f) => f.family === CHART_FONT_FAMILY);
    // Regular and semi-bold: both weights come from the package.
    expect(family?.styles.map((s) => s.weight).sort()).toEqual([400, 600]);
  });

  it('draws the title, with the project and the date, in the title area', async () => {
    const titleRgb = hexToRgb(chartColors.title);
    const titleArea = { x0: 40, y0: 20, x1: 900, y1: 76 }; // device pixels at 2x
    const withText = await decode(chart({}, { scale: 2 }));
    const noText = await decode(chart({}, { scale: 2, text: 'none' }));
    expect(countColour(withText, titleRgb, titleArea, 30)).toBeGreaterThan(400);
    expect(countColour(noText, titleRgb, titleArea, 30)).toBe(0);
    // A longer title draws more ink: the pixels are text, not a shape.
    const longer = await decode(chart({ title: 'Solar Kiosk for the whole neighbourhood' }, { scale: 2 }));
    expect(countColour(longer, titleRgb, titleArea, 30)).toBeGreaterThan(
      countColour(withText, titleRgb, titleArea, 30) * 1.5,
    );
  });

  it('labels the chart in the channel language, and writes both for a look', async () => {
    const now = Date.UTC(2026, 2, 10, 8, 0);
    const readModel = new FakeReadModel({ clock: { now: () => now } }).addProject(scriptedCampaign(now));
    const data = await buildDigest({
      readModel,
      project: 'solar-kiosk',
      now,
      locale: 'en',
      timeZone: 'Europe/Berlin',
      milestones: [25, 50, 75, 100],
    });
    const english = renderFundingChart(fundingChartInput(data, 'en'));
    const german = renderFundingChart(fundingChartInput(data, 'de'));
    expect(Buffer.compare(Buffer.from(english), Buffer.from(german))).not.toBe(0);
    const view = new DataView(german.buffer, german.byteOffset, german.byteLength);
    expect([view.getUint32(16), view.getUint32(20)]).toEqual([1600, 940]);
    await writeFile('/tmp/fundbot-chart-en.png', english);
    await writeFile('/tmp/fundbot-chart-de.png', german);
  });
});
