/**
 * Run by lazy-canvas.test.ts in a fresh process: loads the digest (the bot reaches the chart through it, and
 * loaded the canvas with it), says whether @napi-rs/canvas was loaded by then, draws a chart and says it again.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const canvasLoaded = () => Object.keys(require.cache).some((path) => path.includes('@napi-rs/canvas'));

const { renderFundingChart } = await import('../../../src/digest/index.js');
const atStart = canvasLoaded();
const png = renderFundingChart(
  {
    title: 'Solar Kiosk',
    at: Date.UTC(2026, 2, 11),
    points: [
      { at: Date.UTC(2026, 2, 1), funding: 0 },
      { at: Date.UTC(2026, 2, 11), funding: 8_000 },
    ],
    goal: 10_000,
    currency: 'EUR',
    locale: 'en',
    timeZone: 'Europe/Berlin',
  },
  { scale: 1 },
);
process.stdout.write(JSON.stringify({ atStart, afterChart: canvasLoaded(), pngBytes: png.length }));
