import { createRequire } from 'node:module';
import { GlobalFonts } from '@napi-rs/canvas';

/**
 * The chart's typeface: Inter (SIL Open Font License), latin subset, shipped as the
 * npm package `@fontsource/inter` so the chart looks the same on a slim container
 * without any system font as on a desktop. Registered under its own family name, so
 * a system "Inter" (or its absence) never changes what is drawn.
 */
export const CHART_FONT_FAMILY = 'Fundbot Inter';

/** The packaged font files (regular and semi-bold), resolved from node_modules. */
export function chartFontFiles(): { readonly regular: string; readonly bold: string } {
  const require = createRequire(import.meta.url);
  return {
    regular: require.resolve('@fontsource/inter/files/inter-latin-400-normal.woff2'),
    bold: require.resolve('@fontsource/inter/files/inter-latin-600-normal.woff2'),
  };
}

/**
 * Registers the packaged font with the canvas once per process and returns its
 * family name. The canvas keeps the glyphs in its native registry: about 50 kB
 * per weight, read once.
 */
export function registerChartFont(): string {
  if (!GlobalFonts.has(CHART_FONT_FAMILY)) {
    const files = chartFontFiles();
    GlobalFonts.registerFromPath(files.regular, CHART_FONT_FAMILY);
    GlobalFonts.registerFromPath(files.bold, CHART_FONT_FAMILY);
    if (!GlobalFonts.has(CHART_FONT_FAMILY)) {
      throw new Error(
        `could not load the chart font from ${files.regular}: reinstall the dependencies (npm ci) so @fontsource/inter is present`,
      );
    }
  }
  return CHART_FONT_FAMILY;
}
