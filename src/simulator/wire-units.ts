/**
 * Conversions between the simulator's internal units and the wire's: epoch ms to
 * Unix seconds, amounts to integer cents (so sums never drift), media URLs to file
 * objects. Shared by every part that renders a view.
 */
import type { FileObject } from '../api/schemas/index.js';

export const toSeconds = (ms: number) => Math.floor(ms / 1000);
export const cents = (amount: number) => Math.round(amount * 100);
export const fromCents = (value: number) => value / 100;

export function fileObject(url: string): FileObject {
  return { is_image: true, thumbnails: { '1x': `${url}?w=600`, '2x': `${url}?w=1200` } };
}
