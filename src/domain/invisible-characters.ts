/**
 * Which characters that show nothing may stay in a name or a text, and which must go.
 *
 * Removed: what shows nothing, or nothing but blank space, yet is not whitespace (so
 * `trim()` keeps it), and what can hide or reorder what a reader sees: C0/C1 controls (no
 * terminal escape survives), the soft hyphen U+00AD, the combining grapheme joiner U+034F,
 * the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), Khmer inherent vowels U+17B4/U+17B5,
 * the Mongolian vowel separator, the zero-width space U+200B, the bidi marks, embeddings,
 * overrides and isolates (U+200E/F, U+202A-E, U+2066-9, U+061C), the line and paragraph
 * separators, word joiners and invisible operators U+2060-U+206F, the Braille blank U+2800,
 * the byte-order mark and the tag characters U+E0000-U+E007F.
 *
 * Kept where writing needs them, and only there:
 * - the zero-width joiner U+200D between the parts of an emoji ZWJ sequence (👨‍👩‍👧, 🏳️‍🌈,
 *   👩🏽‍💻): after an emoji, its skin tone or its VS16, before an emoji;
 * - the zero-width non-joiner U+200C and the joiner U+200D between two characters of a script
 *   that writes with them: Persian and the other Arabic-script languages (می‌خواهم), Syriac,
 *   N'Ko, Mongolian, and the Brahmic scripts' half forms and conjuncts (Devanagari,
 *   Bengali, Gurmukhi, Gujarati, Oriya, Tamil, Telugu, Kannada, Malayalam, Sinhala,
 *   Tibetan, Myanmar, Khmer);
 * - the tag characters of a subdivision flag (🏴 + tag letters + cancel tag: 🏴󠁧󠁢󠁳󠁣󠁴󠁿).
 * Why that is safe: a kept joiner always has a visible non-Latin letter or an emoji on both
 * sides, never an ASCII character, so it can neither split a word the renderers neutralise
 * (`@everyone`, `<!channel>`, `https://`, `example.com`) nor make two Latin names look alike,
 * and a joiner alone, at an edge, in a run or next to a space is removed as before. A flag's
 * tags are lowercase letters and digits closed by the cancel tag: a run of tags anywhere else
 * (text hidden from the reader) is removed.
 */

const alwaysInvisible =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00ad\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b\u200e\u200f\u2028-\u202e\u2060-\u206f\u2800\u3164\ufeff\uffa0]|\u034f/gu;

/** Scripts whose writing puts ZWNJ/ZWJ between letters (by Script_Extensions, so shared marks count). */
const joiningScript = String.raw`[\p{scx=Arab}\p{scx=Syrc}\p{scx=Nkoo}\p{scx=Mong}\p{scx=Deva}\p{scx=Beng}\p{scx=Guru}\p{scx=Gujr}\p{scx=Orya}\p{scx=Taml}\p{scx=Telu}\p{scx=Knda}\p{scx=Mlym}\p{scx=Sinh}\p{scx=Tibt}\p{scx=Mymr}\p{scx=Khmr}]`;

/** The end of one emoji inside a ZWJ sequence: the pictograph, its skin tone or its emoji-style selector. */
const emojiEnd = String.raw`[\p{Extended_Pictographic}\p{Emoji_Modifier}\ufe0f]`;

/** A joiner where writing needs it; sticky, tested at each joiner's position (lookbehind sees before it). */
const neededJoiner = new RegExp(
  `(?<=${joiningScript})[\\u200c\\u200d](?=${joiningScript})|(?<=${emojiEnd})\\u200d(?=\\p{Extended_Pictographic})`,
  'uy',
);

/** A subdivision flag's tag sequence (kept whole), or any other tag character (removed). */
const tagCharacters =
  /\u{1f3f4}[\u{e0030}-\u{e0039}\u{e0061}-\u{e007a}]{1,7}\u{e007f}|[\u{e0000}-\u{e007f}]/gu;

/** Removes the invisible characters described above, keeping the joiners and flag tags writing needs. */
export function removeInvisibleCharacters(text: string): string {
  const visible = text.replace(alwaysInvisible, '');
  const withoutTags = visible.includes('\udb40')
    ? visible.replace(tagCharacters, (match) => (match.startsWith('\u{1f3f4}') ? match : ''))
    : visible;
  return withoutTags.replace(/[\u200c\u200d]/g, (joiner, offset: number, whole: string) => {
    neededJoiner.lastIndex = offset;
    return neededJoiner.test(whole) ? joiner : '';
  });
}
