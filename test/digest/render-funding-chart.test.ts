import { createCanvas, loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import {
  CHART_HEIGHT,
  CHART_WIDTH,
  chartColors,
  type FundingChartInput,
  type FundingChartOptions,
  renderFundingChart,
} from '../../src/digest/index.js';

const DAY = 24 * 60 * 60 * 1000;
const start = Date.UTC(2026, 2, 1, 9, 0);

function chart(overrides: Partial<FundingChartInput> = {}, options: FundingChartOptions = {}): Uint8Array {
  return renderFundingChart(
    {
      points: Array.from({ length: 11 }, (_, day) => ({ at: start + day * DAY, funding: day * 800 })),
      goal: 10_000,
      currency: 'EUR',
      locale: 'en',
      timeZone: 'Europe/Berlin',
      ...overrides,
    },
    options,
  );
}

interface Pixels {
  readonly width: number;
  readonly height: number;
  /** Whether the pixel at (x, y) is within `tolerance` of `colour` in each channel. */
  is(x: number, y: number, colour: readonly number[], tolerance?: number): boolean;
}

/** Decodes the PNG back into pixels with the canvas library itself. */
async function decode(png: Uint8Array): Promise<Pixels> {
  const image = await loadImage(Buffer.from(png));
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  const { data } = ctx.getImageData(0, 0, image.width, image.height);
  return {
    width: image.width,
    height: image.height,
    is: (x, y, colour, tolerance = 40) => {
      const i = (y * image.width + x) * 4;
      return (
        Math.abs(data[i]! - colour[0]!) <= tolerance &&
        Math.abs(data[i + 1]! - colour[1]!) <= tolerance &&
        Math.abs(data[i + 2]! - colour[2]!) <= tolerance
      );
    },
  };
}

function hexToRgb(hex: string): [number, number, number] {
  return [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
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
  it('produces a PNG of the documented size', () => {
    const png = chart();
    expect(Array.from(png.subarray(0, 8))).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(Buffer.from(png.subarray(12, 16)).toString('ascii')).toBe('IHDR');
    const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
    expect(view.getUint32(16)).toBe(CHART_WIDTH);
    expect(view.getUint32(20)).toBe(CHART_HEIGHT);
    expect([CHART_WIDTH, CHART_HEIGHT]).toEqual([800, 400]);
  });

  it('renders at twice the size for scale 2', () => {
    const png = chart({}, { scale: 2 });
    const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
    expect([view.getUint32(16), view.getUint32(20)]).toEqual([1600, 800]);
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
    for (let x = 0; x < CHART_WIDTH; x += 5) line += rowsWithColour(none, x, lineRgb).length;
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

  it('draws labels with the built-in bitmap font when asked (the fallback without system fonts)', async () => {
    const textRgb = hexToRgb(chartColors.text);
    const countText = (pixels: Pixels) => {
      let count = 0;
      // The y-axis labels live in the left margin.
      for (let y = 0; y < CHART_HEIGHT; y++)
        for (let x = 0; x < 50; x++) if (pixels.is(x, y, textRgb, 30)) count++;
      return count;
    };
    const bitmap = await decode(chart({}, { text: 'bitmap' }));
    const none = await decode(chart({}, { text: 'none' }));
    expect(countText(bitmap)).toBeGreaterThan(100);
    expect(countText(none)).toBe(0);
  });
});
