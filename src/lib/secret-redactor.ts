import { REDACTED, redactSecretShapes } from './secret-shapes.js';

/**
 * Public prefixes that credentials start with. A server or a library may echo a
 * secret without its prefix (`Tr4ns…` for `svc_proj_Tr4ns…`), so the rest is a
 * secret on its own.
 */
export const KNOWN_SECRET_PREFIXES: readonly string[] = [
  'svc_proj_',
  'svc_user_',
  'xoxb-',
  'xoxp-',
  'xoxa-',
  'xoxr-',
  'xapp-',
  'mfa.',
  'Bearer ',
];

/** An echo of this many characters of a secret (or more) is redacted wherever it appears. */
export const SECRET_PIECE_LENGTH = 16;

/** Shorter values are not registered: they would blank out ordinary words, and real secrets are long. */
export const MIN_SECRET_LENGTH = 8;

/**
 * The most of a text {@link SecretRedactor.redact} looks at: the rest is cut and its length
 * said. A log line or an error message is a few kilobytes; a server's 60 MB error body must
 * not hold the process for seconds (scrubbing costs about a microsecond a character).
 */
export const MAX_REDACTED_CHARS = 64 * 1024;

/**
 * How far back from the cut a run without whitespace is dropped too: a secret (no secret holds
 * whitespace) straddling the cut would otherwise leave its first characters, maybe too few for a
 * piece (16) or a shape to recognise. Longer than any secret fundbot handles (keys, tokens, URLs
 * with a password), so the part of one before the cut is always dropped whole.
 */
const CUT_MARGIN = 256;

/**
 * The one secret redactor. It knows every configured secret by value and removes
 * from any text:
 * - each secret's full value, and the value without its known prefix;
 * - every piece of {@link SECRET_PIECE_LENGTH} or more characters of a secret
 *   (a server echoing part of a key, a truncated header in an error message);
 * - anything shaped like a credential, registered or not (see secret-shapes.ts).
 *
 * Cost, precomputed at `register`: every 16-character window of each form of a
 * secret goes into one Set (a 40-character key: 25 windows of 16 chars, about
 * 1.5 KB with the Set's overhead), with its rolling hash into another. `redact` then
 * hashes each 16-character window of the text (one multiply and add per character)
 * and compares the text only where a hash matches: linear in the text's length,
 * whatever the number of secrets; plus one `split` per secret form shorter than 16 characters and the
 * shape regexes. Any piece of 16 or more characters of a secret contains such a
 * window, and adjacent hits are merged, so the whole echo is removed. Every step is
 * linear in the text's length, and texts are cut at {@link MAX_REDACTED_CHARS}.
 */
export class SecretRedactor {
  /** Values passed to `register`, so registering again costs one Set lookup. */
  readonly #registered = new Set<string>();
  /** Every SECRET_PIECE_LENGTH-character substring of every form of every secret. */
  readonly #pieces = new Set<string>();
  /** {@link windowHash} of each of #pieces: the text's windows are compared only where one matches. */
  readonly #pieceHashes = new Set<number>();
  /** Forms shorter than SECRET_PIECE_LENGTH, longest first: replaced by exact match. */
  #shortForms: string[] = [];

  /** Registers secrets by value (API keys, chat tokens, signing secrets). Idempotent; ignores empty and short values. */
  register(...secrets: readonly (string | undefined)[]): void {
    for (const secret of secrets) {
      if (secret === undefined || secret.length < MIN_SECRET_LENGTH || this.#registered.has(secret)) continue;
      this.#registered.add(secret);
      for (const form of formsOf(secret)) {
        if (form.length < MIN_SECRET_LENGTH) continue;
        if (form.length < SECRET_PIECE_LENGTH) {
          if (!this.#shortForms.includes(form)) this.#shortForms.push(form);
          continue;
        }
        for (let i = 0; i + SECRET_PIECE_LENGTH <= form.length; i++) {
          const piece = form.slice(i, i + SECRET_PIECE_LENGTH);
          this.#pieces.add(piece);
          this.#pieceHashes.add(windowHash(piece, 0));
        }
      }
    }
    this.#shortForms.sort((a, b) => b.length - a.length);
  }

  /**
   * `text` with every registered secret, every 16-character piece of one, and every credential shape
   * replaced by `[redacted]`; a text longer than {@link MAX_REDACTED_CHARS} is cut there first.
   */
  redact(text: string): string {
    const kept = cutBeforeSecrets(text, MAX_REDACTED_CHARS);
    const redacted = redactSecretShapes(this.#redactShortForms(this.#redactPieces(kept)));
    return kept.length === text.length ? redacted : withCutMark(redacted, text.length - kept.length);
  }

  /** Whether `text` holds anything {@link redact} would remove. */
  reveals(text: string): boolean {
    return this.redact(text) !== text;
  }

  #redactPieces(text: string): string {
    if (this.#pieces.size === 0 || text.length < SECRET_PIECE_LENGTH) return text;
    let out = '';
    let copiedUpTo = 0;
    let coverStart = -1;
    let coverEnd = -1;
    let hash = windowHash(text, 0);
    for (let i = 0; i + SECRET_PIECE_LENGTH <= text.length; i++) {
      if (i > 0) hash = rollHash(hash, text.charCodeAt(i - 1), text.charCodeAt(i + SECRET_PIECE_LENGTH - 1));
      if (!this.#pieceHashes.has(hash) || !this.#pieces.has(text.slice(i, i + SECRET_PIECE_LENGTH))) continue;
      if (i <= coverEnd) {
        coverEnd = i + SECRET_PIECE_LENGTH;
        continue;
      }
      if (coverEnd >= 0) out += text.slice(copiedUpTo, coverStart) + REDACTED;
      copiedUpTo = coverEnd >= 0 ? coverEnd : 0;
      coverStart = i;
      coverEnd = i + SECRET_PIECE_LENGTH;
    }
    if (coverEnd < 0) return text;
    return out + text.slice(copiedUpTo, coverStart) + REDACTED + text.slice(coverEnd);
  }

  #redactShortForms(text: string): string {
    let out = text;
    for (const form of this.#shortForms) if (out.includes(form)) out = out.split(form).join(REDACTED);
    return out;
  }
}

/**
 * The first `maxChars` characters of `text`, less the run without whitespace the cut falls into
 * (at most {@link CUT_MARGIN} characters of it): no secret is left half there, too short to be
 * recognised. `text` itself when it is not longer.
 */
export function cutBeforeSecrets(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let end = maxChars;
  const floor = Math.max(0, end - CUT_MARGIN);
  while (end > floor && !/\s/.test(text.charAt(end - 1))) end--;
  return text.slice(0, end);
}

/** `kept` and a note of how many characters were cut after it. */
export function withCutMark(kept: string, cutChars: number): string {
  return `${kept} …[${cutChars} characters cut]`;
}

/** The base of the windows' polynomial hash (an odd 32-bit multiplier), and its power for the character leaving. */
const HASH_BASE = 0x01000193;
const HASH_BASE_TOP = Array.from({ length: SECRET_PIECE_LENGTH - 1 }).reduce<number>(
  (power) => Math.imul(power, HASH_BASE),
  1,
);

/** The hash of the SECRET_PIECE_LENGTH characters of `text` from `start` (modulo 2^32). */
function windowHash(text: string, start: number): number {
  let hash = 0;
  for (let i = start; i < start + SECRET_PIECE_LENGTH; i++) {
    hash = (Math.imul(hash, HASH_BASE) + text.charCodeAt(i)) >>> 0;
  }
  return hash;
}

/** The hash of the next window: `leaving` drops out at the front, `entering` joins at the end. */
function rollHash(hash: number, leaving: number, entering: number): number {
  return (Math.imul((hash - Math.imul(leaving, HASH_BASE_TOP)) >>> 0, HASH_BASE) + entering) >>> 0;
}

/** The value, the value without its known prefix, and both as they appear inside a JSON string. */
function formsOf(secret: string): string[] {
  const forms = [secret];
  const prefix = KNOWN_SECRET_PREFIXES.find((p) => secret.startsWith(p));
  if (prefix) forms.push(secret.slice(prefix.length));
  for (const form of [...forms]) {
    const inJson = JSON.stringify(form).slice(1, -1);
    if (inJson !== form) forms.push(inJson);
  }
  return forms;
}

/**
 * The process's one redactor. The composition root registers every configured
 * secret at start (`secretRedactor.register(token, signingSecret)`); the API
 * transport registers each API key it sends with; the logger and `scrubSecrets`
 * redact with it. Shared on purpose: a secret known to one part is hidden by all.
 */
export const secretRedactor = new SecretRedactor();
