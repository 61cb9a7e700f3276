/**
 * Defence in depth for text the engine hands us for display (stale reasons,
 * /status error lines). The engine promises they are secret-free; should a
 * key ever slip into one, it still never reaches a channel.
 */
const secretPatterns: readonly RegExp[] = [
  /svc_(?:proj|user)_[^\s"'\\,;]*[^\s"'\\,;:.)]/g,
  /\bBearer\s+[A-Za-z0-9._~+/=-]+/gi,
  /\b(?:xox[abposr]|xapp)-[A-Za-z0-9-]+/g,
];

export function redactSecrets(text: string): string {
  return secretPatterns.reduce((acc, pattern) => acc.replace(pattern, '[redacted]'), text);
}
