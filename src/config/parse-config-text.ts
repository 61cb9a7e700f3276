import { createRequire } from 'node:module';
import type { Node, ParseError } from 'jsonc-parser';
import { MAX_CONFIG_DEPTH } from './file-limits.js';

type JsoncParser = typeof import('jsonc-parser');
let loaded: JsoncParser | undefined;
/**
 * jsonc-parser, required when the first config file is parsed: it is CommonJS (UMD), and importing it as
 * ESM cost about 40 ms of CPU (Node's scan of its exports) against about 14 ms for require; the demo,
 * which parses no config, pays neither.
 */
function jsonc(): JsoncParser {
  loaded ??= createRequire(import.meta.url)('jsonc-parser') as JsoncParser;
  return loaded;
}

/** The config file's text as a value, or where and why it cannot be read (never quoting the text). */
export type ParsedConfigText =
  | { readonly ok: true; readonly value: unknown }
  | {
      readonly ok: false;
      readonly kind: 'syntax' | 'too-deep';
      /** 1-based, in UTF-16 code units as editors count them. */
      readonly line: number;
      readonly column: number;
      readonly reason: string;
    };

/**
 * Parses the config file as JSON with comments (`//` and `/* *\/`) and trailing commas, with
 * Microsoft's `jsonc-parser` (the parser of VS Code's settings files). It replaces a
 * hand-written strict-JSON scanner kept only to say where the text breaks: jsonc-parser
 * reports every error with its offset and a code, allows the comments operators want to leave
 * beside a setting, and is maintained with VS Code.
 *
 * Why not `JSON.parse`'s message: depending on the error, V8 reports a position or quotes a
 * slice of the file; a config file should not hold secrets, but if it does they must not be
 * echoed. The reasons below name at most one structural character.
 *
 * Two things jsonc-parser does not do as `JSON.parse` does are handled here: its parser is
 * recursive, so nesting is first counted by its (iterative) scanner and a file deeper than
 * {@link MAX_CONFIG_DEPTH} is refused before parsing (no stack overflow on a hostile file);
 * and its `parse` assigns properties, so a `"__proto__"` key would set a prototype: the
 * value is built from its syntax tree with `Object.fromEntries`, which makes every key an own
 * property, as `JSON.parse` does (the secret and schema checks walk own properties).
 */
export function parseConfigText(text: string): ParsedConfigText {
  const strict = parseStrictJson(text);
  if (strict !== undefined) return strict;
  const shape = scanNesting(text);
  if (shape !== undefined) return shape;
  const errors: ParseError[] = [];
  const root = jsonc().parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  const [first] = errors;
  if (first !== undefined || root === undefined) {
    const offset = first?.offset ?? 0;
    return {
      ok: false,
      kind: 'syntax',
      ...lineAndColumn(text, offset),
      reason: describe(first && jsonc().printParseErrorCode(first.error), text[offset]),
    };
  }
  return { ok: true, value: plainValue(root) };
}

/**
 * A file that is plain JSON within the nesting limit, read with `JSON.parse` (native, about 10x faster than the
 * scanner pass and syntax tree below: a 3,000-project file took ~300 ms of CPU there). Plain JSON means the
 * same value either way: jsonc-parser only adds comments and trailing commas, both take the same whitespace
 * and escapes, and `JSON.parse` also makes `"__proto__"` an own property. Anything else (a syntax error,
 * comments, a file past the nesting limit) is undefined and goes the jsonc-parser way, which says where.
 * `JSON.parse` does not recurse (V8), so a hostile nesting cannot overflow the stack here.
 */
function parseStrictJson(text: string): ParsedConfigText | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return nestedWithin(value, MAX_CONFIG_DEPTH) ? { ok: true, value } : undefined;
}

/** Whether objects and arrays nest at most `levels` deep (recursion bounded by `levels`). */
function nestedWithin(value: unknown, levels: number): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (levels === 0) return false;
  for (const item of Array.isArray(value) ? value : Object.values(value))
    if (!nestedWithin(item, levels - 1)) return false;
  return true;
}

/**
 * The empty file and nesting past the limit, found by the scanner alone (it does not recurse).
 * jsonc-parser declares its token kinds as a const enum, which isolated modules cannot read:
 * a token is told by its first character (a string token starts with its quote).
 */
function scanNesting(text: string): ParsedConfigText | undefined {
  const scanner = jsonc().createScanner(text, true);
  const atEnd = () => scanner.getTokenOffset() >= text.length;
  scanner.scan();
  if (atEnd()) {
    return {
      ok: false,
      kind: 'syntax',
      line: 1,
      column: 1,
      reason: 'the file is empty: it must hold one JSON object',
    };
  }
  let depth = 0;
  for (; !atEnd(); scanner.scan()) {
    const first = text[scanner.getTokenOffset()];
    if (first === '{' || first === '[') {
      depth += 1;
      if (depth > MAX_CONFIG_DEPTH) {
        return {
          ok: false,
          kind: 'too-deep',
          line: scanner.getTokenStartLine() + 1,
          column: scanner.getTokenStartCharacter() + 1,
          reason: `objects and arrays are nested more than ${MAX_CONFIG_DEPTH} deep here`,
        };
      }
    } else if (first === '}' || first === ']') {
      depth -= 1;
    }
  }
  return undefined;
}

function plainValue(node: Node): unknown {
  switch (node.type) {
    case 'object':
      return Object.fromEntries(
        (node.children ?? []).map((property) => {
          const [key, value] = property.children ?? [];
          return [String(key?.value), value === undefined ? undefined : plainValue(value)];
        }),
      );
    case 'array':
      return (node.children ?? []).map(plainValue);
    default:
      return node.value;
  }
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lineStart = Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r')) + 1;
  return { line: before.split(/\r\n|\r|\n/).length, column: offset - lineStart + 1 };
}

type ParseErrorName = ReturnType<JsoncParser['printParseErrorCode']>;

/** Each of jsonc-parser's errors (by name: its codes are a const enum too) in words; `at` is where it was found. */
function describe(error: ParseErrorName | undefined, at: string | undefined): string {
  const found =
    at === undefined
      ? 'the end of the file'
      : at === '"'
        ? 'a string'
        : "{}[]:,'".includes(at)
          ? `"${at}"`
          : 'an unexpected character';
  switch (error) {
    case 'InvalidSymbol':
      return at === "'" ? 'strings need double quotes (") in JSON' : `expected a value, found ${found}`;
    case 'InvalidNumberFormat':
    case 'UnexpectedEndOfNumber':
      return 'invalid number';
    case 'PropertyNameExpected':
      return `expected a field name in double quotes, found ${found}`;
    case 'ColonExpected':
      return `expected ":" after the field name, found ${found}`;
    case 'CommaExpected':
      return `expected "," between two values, found ${found}`;
    case 'CloseBraceExpected':
      return `expected "," or "}" after a field value, found ${found}`;
    case 'CloseBracketExpected':
      return `expected "," or "]" after an array item, found ${found}`;
    case 'EndOfFileExpected':
      return `unexpected ${found} after the end of the JSON value`;
    case 'InvalidCommentToken':
    case 'UnexpectedEndOfComment':
      return 'a /* comment is never closed (missing */)';
    case 'UnexpectedEndOfString':
      return 'string is never closed (missing ")';
    case 'InvalidUnicode':
      return 'invalid \\u escape: it needs four hex digits';
    case 'InvalidEscapeCharacter':
      return 'invalid escape sequence in a string';
    case 'InvalidCharacter':
      return 'line break or control character inside a string';
    default:
      return `expected a value, found ${found}`;
  }
}
