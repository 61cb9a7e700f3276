import { createRequire } from 'node:module';

type Canvas = typeof import('@napi-rs/canvas');

const require = createRequire(import.meta.url);
let loaded: Canvas | undefined;

/**
 * @napi-rs/canvas, loaded by the first chart drawn, not when the bot starts: the native module (a 30 MB
 * library mapped at load) cost every process 40-80 ms of CPU and 0.3-0.6 s of wall time before its first poll,
 * and most processes draw no chart for hours (issue 33, bench scaleRedis). Synchronous, as the drawing is.
 */
export function canvasModule(): Canvas {
  loaded ??= require('@napi-rs/canvas') as Canvas;
  return loaded;
}
