/**
 * Recognises credentials by their shape, so they can be removed from any text
 * (log lines, error messages, stacks) before it leaves the process, whoever wrote
 * that text: our code, a library, or a server echoing a header back.
 *
 * Shapes (each matched as a whole token):
 * - platform API keys: `svc_proj_…`, `svc_user_…`
 * - Slack tokens: `xoxb-…`, `xoxp-…`, `xoxa-…`, `xoxr-…` (and the other xox? kinds), app tokens `xapp-…`
 * - Discord bot tokens: three base64url parts joined by dots (`<id>.<time>.<hmac>`), and `mfa.…`
 * - Discord interaction and webhook tokens in URLs: `/interactions/<id>/<token>`, `/webhooks/<id>/<token>`
 * - `Bearer <anything>` in header-like text
 * - passwords in URLs: `redis://user:password@host` keeps the scheme and host only
 */

/** The replacement text: says something was removed without hinting at what. */
export const REDACTED = '[redacted]';

// One regex per shape, so that `findSecretKind` can say which kind it found. No `\b` anchors: the
// logger scrubs serialised JSON, where a secret right after an escape (`\nsvc_proj_…`) has no word
// boundary. The Discord pattern never starts inside an escape such as `\n`, which would turn `\nMTk…`
// into the invalid escape `\[redacted]`. The prefixed shapes need no such guard
// (no JSON escape ends in `s` or `x`), and must not have it: `C:\\data\\svc_proj_…` would slip through.
// A platform key may hold any visible character after its prefix, so it runs to the next separator
// (not ending on the punctuation of the sentence around it: "key svc_proj_…: refused").
// Linear in the text's length: no pattern may start at every character of a long run of its own
// characters and scan to the run's end (20,000 letters cost 0.6-2.9 s of backtracking that way). The
// Discord token starts only where a run starts; a URL's password only right after `://`; the others
// start only at a literal prefix (`svc_`, `xox`, `/webhooks/`, `Bearer`) that a run of their own
// characters cannot repeat.
const secretShapes: readonly { readonly kind: string; readonly regex: RegExp; readonly replace: string }[] = [
  { kind: 'platform API key', regex: /svc_(?:proj|user)_[^\s"'\\,;]*[^\s"'\\,;:.)]/g, replace: REDACTED },
  { kind: 'Slack token', regex: /xox[a-z]-[A-Za-z0-9-]+/g, replace: REDACTED },
  { kind: 'Slack app token', regex: /xapp-[A-Za-z0-9-]+/g, replace: REDACTED },
  {
    kind: 'Discord token',
    // Starts only where a run of token characters starts, or right after a JSON escape (`\n`, `\u00e9`):
    // one attempt per run, not one per character.
    regex:
      /(?:(?<![A-Za-z0-9_\\-])|(?<=\\[nrtbf]|\\u[0-9a-fA-F]{4}))[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{5,7}\.[A-Za-z0-9_-]{25,}/g,
    replace: REDACTED,
  },
  { kind: 'Discord token', regex: /(?<!\\)mfa\.[A-Za-z0-9_-]{20,}/g, replace: REDACTED },
  {
    // Interaction and webhook URLs carry a token after the id (a credential for 15 minutes, or for good).
    kind: 'Discord interaction or webhook token',
    regex: /(\/(?:interactions|webhooks)\/\d+\/)[^/?\s"'\\]+/g,
    replace: `$1${REDACTED}`,
  },
  { kind: 'bearer credential', regex: /(?<!\\)(Bearer)\s+[^\s"',;\\]+/gi, replace: `$1 ${REDACTED}` },
  {
    kind: 'password in a URL',
    // The scheme in a lookbehind: the match can only begin right after `://`, one comparison elsewhere.
    regex: /(?<=[a-z][a-z0-9+.-]{0,31}:\/\/)[^\s/@:"'\\]*:[^\s/@"'\\]+@/gi,
    replace: `${REDACTED}@`,
  },
];

/** Replaces every credential-shaped substring of `text` with its redacted form. */
export function redactSecretShapes(text: string): string {
  let out = text;
  for (const { regex, replace } of secretShapes) out = out.replace(regex, replace);
  return out;
}

/**
 * The shapes without the global flag, for `test`: a global regex keeps state in lastIndex, a non-global one
 * neither reads nor writes it, so these stay pure. Compiled once: a copy per call cost 8 RegExp compilations
 * per string, ~170 ms of the ~480 ms CPU of a 3,000-project config's first parse.
 */
const secretTests = secretShapes.map(({ kind, regex }) => ({
  kind,
  regex: new RegExp(regex.source, regex.flags.replace('g', '')),
}));

/** The kind of the first credential-shaped substring in `text` (e.g. "Slack token"), or undefined. */
export function findSecretKind(text: string): string | undefined {
  for (const { kind, regex } of secretTests) if (regex.test(text)) return kind;
  return undefined;
}
