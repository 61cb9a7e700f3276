import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { canvasModule } from './canvas-module.js';
import { fontCodePoints } from './font-cmap.js';

/**
 * The chart's typefaces, all from npm packages so the chart looks the same on a slim
 * container without any system font as on a desktop (SIL Open Font License):
 * - Inter (`@fontsource/inter`), regular and semi-bold: its latin subset for every label,
 *   and its latin-ext, cyrillic, greek and vietnamese subsets for names in those scripts;
 * - Noto Sans SC (`@fontsource-variable/noto-sans-sc`, one variable font cut into ~100
 *   unicode-range subsets, 4.9 MB installed): CJK ideographs, kana and full-width forms,
 *   so a project named "太陽光キオスク" is drawn, not shown as "NO GLYPH" boxes.
 * Each subset is registered under its own family the first time a text needs it (a
 * Latin-only chart loads two files) and a text is drawn with exactly the families that
 * cover its characters: Skia falls back along the family list. A subset is picked by its
 * declared unicode-range and trusted only for what its own cmap maps (font-cmap.ts).
 * What no file maps (Hangul, Arabic, most emoji) is reported by {@link ChartFonts.covers},
 * so the chart can leave it out instead of drawing boxes.
 */
export const CHART_FONT_FAMILY = 'Fundbot Inter';

const require = createRequire(import.meta.url);

/** The packaged Inter files of the latin subset (regular and semi-bold), resolved from node_modules. */
export function chartFontFiles(): { readonly regular: string; readonly bold: string } {
  return {
    regular: require.resolve('@fontsource/inter/files/inter-latin-400-normal.woff2'),
    bold: require.resolve('@fontsource/inter/files/inter-latin-600-normal.woff2'),
  };
}

/**
 * Registers Inter's latin subset with the canvas once per process and returns its family
 * name. The canvas keeps the glyphs in its native registry: about 50 kB per weight.
 */
export function registerChartFont(): string {
  const { GlobalFonts } = canvasModule();
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

/** One unicode-range subset file (or one per weight) under a family of its own. */
interface Subset {
  readonly family: string;
  readonly files: readonly string[];
  /** What the package declares for the file: where to look. */
  readonly ranges: readonly (readonly [number, number])[];
}

/** What a font file really maps (its cmap), read once per file. */
const mapped = new Map<string, readonly (readonly [number, number])[]>();
function mappedBy(file: string): readonly (readonly [number, number])[] {
  let ranges = mapped.get(file);
  if (!ranges) {
    ranges = fontCodePoints(readFileSync(file));
    mapped.set(file, ranges);
  }
  return ranges;
}

/** "U+0460-052F,U+20B4" → [[0x460, 0x52f], [0x20b4, 0x20b4]] (the packages' unicode.json). */
function parseRanges(text: string): [number, number][] {
  return text.split(',').map((part) => {
    const [from, to] = part.trim().replace(/^U\+/i, '').split('-');
    const start = Number.parseInt(from ?? '', 16);
    return [start, to === undefined ? start : Number.parseInt(to, 16)];
  });
}

function unicodeMap(pkg: string): Record<string, string> {
  return JSON.parse(readFileSync(require.resolve(`${pkg}/unicode.json`), 'utf8')) as Record<string, string>;
}

/** Every subset beyond Inter's latin, in fallback order: Inter's scripts, then Noto Sans SC's. */
function loadSubsets(): Subset[] {
  const inter = Object.entries(unicodeMap('@fontsource/inter'))
    .filter(([name]) => name !== 'latin')
    .map(([name, ranges]) => ({
      family: `${CHART_FONT_FAMILY} ${name}`,
      files: [400, 600].map((w) =>
        require.resolve(`@fontsource/inter/files/inter-${name}-${w}-normal.woff2`),
      ),
      ranges: parseRanges(ranges),
    }));
  const noto = Object.entries(unicodeMap('@fontsource-variable/noto-sans-sc')).map(([key, ranges]) => {
    const n = key.replace(/[[\]]/g, '');
    return {
      family: `Fundbot Noto Sans SC ${n}`,
      files: [require.resolve(`@fontsource-variable/noto-sans-sc/files/noto-sans-sc-${n}-wght-normal.woff2`)],
      ranges: parseRanges(ranges),
    };
  });
  return [...inter, ...noto];
}

const within = (ranges: readonly (readonly [number, number])[], cp: number) =>
  ranges.some(([from, to]) => cp >= from && cp <= to);

/** What the chart's text painter needs from its fonts. */
export interface ChartFonts {
  /** The CSS font for `text`: Inter, then the subsets that cover its other characters. */
  font(text: string, size: number, bold: boolean): string;
  /** Whether a character (one code point) can be drawn: covered by Inter's latin or a subset. */
  covers(codePoint: number): boolean;
}

let shared: ChartFonts | undefined;

/** The chart's fonts, once per process (the subset table is parsed once; files load on first use). */
export function chartFonts(): ChartFonts {
  if (shared) return shared;
  const latin = mappedBy(chartFontFiles().regular);
  const subsets = loadSubsets();
  const subsetOf = new Map<number, Subset | null>();
  const registered = new Set<string>();
  const find = (cp: number): Subset | null => {
    let found = subsetOf.get(cp);
    if (found === undefined) {
      found =
        subsets.find((s) => within(s.ranges, cp) && s.files.every((f) => within(mappedBy(f), cp))) ?? null;
      subsetOf.set(cp, found);
    }
    return found;
  };
  shared = {
    font(text, size, bold) {
      const families = [registerChartFont()];
      for (const char of text) {
        const cp = char.codePointAt(0) ?? 0;
        if (within(latin, cp)) continue;
        const subset = find(cp);
        if (!subset || families.includes(subset.family)) continue;
        if (!registered.has(subset.family)) {
          for (const file of subset.files) canvasModule().GlobalFonts.registerFromPath(file, subset.family);
          registered.add(subset.family);
        }
        families.push(subset.family);
      }
      return `${bold ? 600 : 400} ${size}px ${families.map((f) => `"${f}"`).join(', ')}`;
    },
    covers: (cp) => within(latin, cp) || find(cp) !== null,
  };
  return shared;
}
