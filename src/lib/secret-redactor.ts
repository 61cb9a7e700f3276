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
 * The one secret redactor. It knows every configured secret by value and removes
 * from any text:
 * - each secret's full value, and the value without its known prefix;
 * - every piece of {@link SECRET_PIECE_LENGTH} or more characters of a secret
 *   (a server echoing part of a key, a truncated header in an error message);
 * - anything shaped like a credential, registered or not (see secret-shapes.ts).
 *
 * Cost, precomputed at `register`: every 16-character window of each form of a
 * secret goes into one Set (a 40-character key: 25 windows of 16 chars, about
 * 1.5 KB with the Set's overhead). `redact` then looks up each 16-character window
 * of the text once: n − 15 substring lookups for a text of n characters (a 1 KB
 * log line: about 1,000 lookups, tens of microseconds), whatever the number of
 * secrets; plus one `split` per secret form shorter than 16 characters and the
 * shape regexes. Any piece of 16 or more characters of a secret contains such a
 * window, and adjacent hits are merged, so the whole echo is removed.
 */
export class SecretRedactor {
  /** Values passed to `register`, so registering again costs one Set lookup. */
  readonly #registered = new Set<string>();
  /** Every SECRET_PIECE_LENGTH-character substring of every form of every secret. */
  readonly #pieces = new Set<string>();
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
          this.#pieces.add(form.slice(i, i + SECRET_PIECE_LENGTH));
        }
      }
    }
    this.#shortForms.sort((a, b) => b.length - a.length);
  }

  /** `text` with every registered secret, every 16-character piece of one, and every credential shape replaced by `[redacted]`. */
  redact(text: string): string {
    return redactSecretShapes(this.#redactShortForms(this.#redactPieces(text)));
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
    for (let i = 0; i + SECRET_PIECE_LENGTH <= text.length; i++) {
      if (!this.#pieces.has(text.slice(i, i + SECRET_PIECE_LENGTH))) continue;
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
