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
// boundary. `(?<!\\)` keeps the Discord pattern from starting inside an escape such as `\n`, which
// would turn `\nMTk…` into the invalid escape `\[redacted]`. The prefixed shapes need no such guard
// (no JSON escape ends in `s` or `x`), and must not have it: `C:\\data\\svc_proj_…` would slip through.
// A platform key may hold any visible character after its prefix, so it runs to the next separator
// (not ending on the punctuation of the sentence around it: "key svc_proj_…: refused").
const secretShapes: readonly { readonly kind: string; readonly regex: RegExp; readonly replace: string }[] = [
  { kind: 'platform API key', regex: /svc_(?:proj|user)_[^\s"'\\,;]*[^\s"'\\,;:.)]/g, replace: REDACTED },
  { kind: 'Slack token', regex: /xox[a-z]-[A-Za-z0-9-]+/g, replace: REDACTED },
  { kind: 'Slack app token', regex: /xapp-[A-Za-z0-9-]+/g, replace: REDACTED },
  {
    kind: 'Discord token',
    regex: /(?<!\\)[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{5,7}\.[A-Za-z0-9_-]{25,}/g,
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
    regex: /([a-z][a-z0-9+.-]*:\/\/)[^\s/@:"'\\]*:[^\s/@"'\\]+@/gi,
    replace: `$1${REDACTED}@`,
  },
];

/** Replaces every credential-shaped substring of `text` with its redacted form. */
export function redactSecretShapes(text: string): string {
  let out = text;
  for (const { regex, replace } of secretShapes) out = out.replace(regex, replace);
  return out;
}

/** The kind of the first credential-shaped substring in `text` (e.g. "Slack token"), or undefined. */
export function findSecretKind(text: string): string | undefined {
  for (const { kind, regex } of secretShapes) {
    // Global regexes keep state in lastIndex; a fresh copy keeps this function pure.
    if (new RegExp(regex.source, regex.flags.replace('g', '')).test(text)) return kind;
  }
  return undefined;
}
