import type { SKRSContext2D } from '@napi-rs/canvas';
import { graphemes } from '../domain/text.js';
import { type ChartFonts, chartFonts } from './chart-font.js';

/** Where a text was drawn, in CSS pixels: its box, for layout checks. */
export interface PlacedText {
  readonly text: string;
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
}

export interface TextStyle {
  readonly align?: 'left' | 'right' | 'center';
  readonly color?: string;
  readonly size?: number;
  readonly bold?: boolean;
}

/** Draws and measures the chart's text in its packaged fonts. */
export interface TextPainter {
  draw(text: string, x: number, y: number, style: TextStyle): PlacedText;
  width(text: string, size?: number, bold?: boolean): number;
  /** `text`, cut with an ellipsis to at most `maxWidth` pixels. */
  fit(text: string, maxWidth: number, size?: number, bold?: boolean): string;
  /** `text` without what no packaged font can draw; undefined when a letter of it cannot be drawn. */
  drawable(text: string): string | undefined;
}

/** Decoration that may be left out when no font has it (emoji, symbols, their joiners and selectors). */
const decoration = /^(?:\p{Extended_Pictographic}|\p{S}|\u200d|\ufe0f|\u20e3)$/u;

/** A painter with the packaged fonts; `onText` hears every drawn text (layout checks). */
export function fontPainter(
  ctx: SKRSContext2D,
  color: string,
  onText?: (placed: PlacedText) => void,
  fonts: ChartFonts = chartFonts(),
): TextPainter {
  ctx.textBaseline = 'middle';
  const width = (text: string, size = 12, bold = false) => {
    ctx.font = fonts.font(text, size, bold);
    return ctx.measureText(text).width;
  };
  return {
    draw(text, x, y, { align = 'left', color: fill = color, size = 12, bold = false }) {
      ctx.font = fonts.font(text, size, bold);
      ctx.fillStyle = fill;
      ctx.textAlign = align;
      ctx.fillText(text, x, y);
      const w = ctx.measureText(text).width;
      const left = align === 'left' ? x : align === 'right' ? x - w : x - w / 2;
      const placed = { text, left, right: left + w, top: y - size * 0.6, bottom: y + size * 0.6 };
      onText?.(placed);
      return placed;
    },
    width,
    fit(text, maxWidth, size = 12, bold = false) {
      if (width(text, size, bold) <= maxWidth) return text;
      const chars = graphemes(text);
      // The longest prefix that fits with the ellipsis: a binary search over grapheme clusters.
      let low = 0;
      let high = chars.length;
      while (low < high) {
        const mid = Math.ceil((low + high) / 2);
        if (width(`${chars.slice(0, mid).join('').trimEnd()}…`, size, bold) <= maxWidth) low = mid;
        else high = mid - 1;
      }
      return `${chars.slice(0, low).join('').trimEnd()}…`;
    },
    drawable(text) {
      let out = '';
      for (const char of text) {
        if (/\s/u.test(char) || fonts.covers(char.codePointAt(0) ?? 0)) out += char;
        else if (!decoration.test(char)) return undefined;
      }
      return out.replace(/\s+/g, ' ').trim();
    },
  };
}

/** For charts drawn without text (shape tests): measures nothing, draws nothing. */
export const silentPainter: TextPainter = {
  draw: (text, x, y) => ({ text, left: x, right: x, top: y, bottom: y }),
  width: () => 0,
  fit: (text) => text,
  drawable: (text) => text,
};
