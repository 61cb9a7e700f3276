/**
 * A log-safe summary of an error. discord.js errors carry the request URL, and
 * interaction and webhook URLs contain the interaction token (a credential for
 * 15 minutes); the bot token can appear in a message too. Both are redacted.
 */
export function describeError(error: unknown, secrets: readonly string[] = []): Record<string, unknown> {
  if (!(error instanceof Error)) return { error: redact(String(error), secrets) };
  const e = error as Error & { code?: unknown; status?: unknown; method?: unknown; url?: unknown };
  const summary: Record<string, unknown> = { name: e.name, message: redact(e.message, secrets) };
  if (typeof e.code === 'number' || typeof e.code === 'string') summary['code'] = e.code;
  if (typeof e.status === 'number') summary['status'] = e.status;
  if (typeof e.method === 'string') summary['method'] = e.method;
  if (typeof e.url === 'string') summary['url'] = redact(e.url, secrets);
  return summary;
}

/** Interaction and webhook tokens sit in the path after the id; Bot tokens after "Bot ". */
export function redact(text: string, secrets: readonly string[] = []): string {
  let out = text
    .replace(/(\/(?:interactions|webhooks)\/\d+\/)[^/?\s]+/g, '$1[redacted]')
    .replace(/(Bot\s+)[\w.-]+/g, '$1[redacted]');
  for (const secret of secrets) if (secret.length >= 8) out = out.split(secret).join('[redacted]');
  return out;
}
