import { brotliDecompressSync } from 'node:zlib';

/**
 * The code points a WOFF2 font file really maps to glyphs, read from its `cmap` table.
 *
 * The @fontsource packages declare a `unicode-range` per subset file, but a range is
 * a promise about the whole family, not this file: Noto Sans SC's subset [4] declares
 * U+1F319-1F320 and draws "NO GLYPH" boxes for most of it. The chart asks the font
 * itself. WOFF2 (https://www.w3.org/TR/WOFF2/) keeps every table in one Brotli stream,
 * in directory order; `cmap` is never transformed, so it is read as stored.
 *
 * Why by hand (issue 31 looked for a maintained library first): @napi-rs/canvas, which draws
 * the chart, tells which families are registered but not which code points a file maps;
 * opentype.js 2.0 reads no WOFF2 without wawoff2's WebAssembly build; fontkit 2.0.4 reads
 * WOFF2 and agreed with this parser on all 108 packaged files (it also lists U+FFFF, the
 * closing segment of format 4, as mapped), but took about 28 ms of CPU per file against
 * 2.3 ms here (it inflates Brotli in JavaScript and parses the whole font), brings about
 * 10 MB of dependencies, and has had no release since December 2024. What is needed is one
 * table's ranges after Node's own Brotli: the two cmap formats these fonts use (4 and 12).
 */

/** Table tags by their WOFF2 index; only the ones that matter here. */
const CMAP = 0;
const GLYF = 10;
const LOCA = 11;

function readBase128(bytes: Uint8Array, at: { offset: number }): number {
  let value = 0;
  for (let i = 0; i < 5; i++) {
    const byte = bytes[at.offset++] ?? 0;
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return value;
  }
  throw new Error('WOFF2: a UIntBase128 longer than 5 bytes');
}

/** The `cmap` table of a WOFF2 file, undecoded. */
function cmapTable(file: Uint8Array): DataView {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  if (view.getUint32(0) !== 0x774f4632) throw new Error('not a WOFF2 file');
  const numTables = view.getUint16(12);
  const compressedLength = view.getUint32(20);
  const at = { offset: 48 };
  let cmapStart = -1;
  let cmapLength = 0;
  let position = 0;
  for (let i = 0; i < numTables; i++) {
    const flags = file[at.offset++] ?? 0;
    const tag = flags & 0x3f;
    if (tag === 63) at.offset += 4; // an arbitrary tag, spelled out
    const version = flags >> 6;
    const origLength = readBase128(file, at);
    // glyf and loca are transformed at version 0; every other table (hmtx: version 1) at any version but 0.
    const transformed = tag === GLYF || tag === LOCA ? version === 0 : version !== 0;
    const length = transformed ? readBase128(file, at) : origLength;
    if (tag === CMAP) [cmapStart, cmapLength] = [position, length];
    position += length;
  }
  if (cmapStart < 0) throw new Error('WOFF2: no cmap table');
  const stream = brotliDecompressSync(file.subarray(at.offset, at.offset + compressedLength));
  return new DataView(stream.buffer, stream.byteOffset + cmapStart, cmapLength);
}

/** Format 12 (segmented coverage): groups of consecutive code points. */
function format12(cmap: DataView, offset: number): [number, number][] {
  const groups = cmap.getUint32(offset + 12);
  const ranges: [number, number][] = [];
  for (let i = 0; i < groups; i++) {
    const g = offset + 16 + i * 12;
    ranges.push([cmap.getUint32(g), cmap.getUint32(g + 4)]);
  }
  return ranges;
}

/** Format 4 (BMP segments); the closing 0xFFFF segment is no character. */
function format4(cmap: DataView, offset: number): [number, number][] {
  const segments = cmap.getUint16(offset + 6) / 2;
  const ranges: [number, number][] = [];
  for (let i = 0; i < segments; i++) {
    const end = cmap.getUint16(offset + 14 + i * 2);
    const start = cmap.getUint16(offset + 16 + segments * 2 + i * 2);
    if (start !== 0xffff) ranges.push([start, end]);
  }
  return ranges;
}

/** The ranges of code points the font maps, from its Unicode cmap subtable (full repertoire preferred). */
export function fontCodePoints(file: Uint8Array): [number, number][] {
  const cmap = cmapTable(file);
  const count = cmap.getUint16(2);
  let best: { offset: number; format: number } | undefined;
  for (let i = 0; i < count; i++) {
    const platform = cmap.getUint16(4 + i * 8);
    const encoding = cmap.getUint16(6 + i * 8);
    const offset = cmap.getUint32(8 + i * 8);
    const unicode = platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10));
    if (!unicode) continue;
    const format = cmap.getUint16(offset);
    if (format === 12 && best?.format !== 12) best = { offset, format };
    else if (format === 4 && !best) best = { offset, format };
  }
  if (!best) return [];
  return best.format === 12 ? format12(cmap, best.offset) : format4(cmap, best.offset);
}
