import { createCanvas, loadImage } from '@napi-rs/canvas';

/** Pixel checks on rendered chart PNGs: the chart tests look at what a reader would see. */

export interface Pixels {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8ClampedArray;
  /** Whether the pixel at (x, y) is within `tolerance` of `colour` in each channel. */
  is(x: number, y: number, colour: readonly number[], tolerance?: number): boolean;
}

/** Decodes the PNG back into pixels with the canvas library itself. */
export async function decode(png: Uint8Array): Promise<Pixels> {
  const image = await loadImage(Buffer.from(png));
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  const { data } = ctx.getImageData(0, 0, image.width, image.height);
  return {
    width: image.width,
    height: image.height,
    data,
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

export function hexToRgb(hex: string): [number, number, number] {
  return [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
}

/** Pixels of a colour inside a rectangle. */
export function countColour(
  pixels: Pixels,
  colour: readonly number[],
  box: { x0: number; y0: number; x1: number; y1: number },
  tolerance = 40,
): number {
  let count = 0;
  for (let y = box.y0; y < box.y1; y++)
    for (let x = box.x0; x < box.x1; x++) if (pixels.is(x, y, colour, tolerance)) count++;
  return count;
}
