import { scrubSecrets } from '../../lib/scrub-secrets.js';

/**
 * A log-safe summary of an error. discord.js errors carry the request URL, and
 * interaction and webhook URLs contain the interaction token (a credential for
 * 15 minutes); the bot token can appear in a message too. Everything goes through
 * the one redactor (`scrubSecrets`): the `secrets` given here (the bot token), every
 * secret registered at start, and every credential shape, interaction and webhook
 * tokens in URLs included.
 */
export function describeError(error: unknown, secrets: readonly string[] = []): Record<string, unknown> {
  if (!(error instanceof Error)) return { error: scrubSecrets(String(error), secrets) };
  const e = error as Error & { code?: unknown; status?: unknown; method?: unknown; url?: unknown };
  const summary: Record<string, unknown> = { name: e.name, message: scrubSecrets(e.message, secrets) };
  if (typeof e.code === 'number' || typeof e.code === 'string') summary['code'] = e.code;
  if (typeof e.status === 'number') summary['status'] = e.status;
  if (typeof e.method === 'string') summary['method'] = e.method;
  if (typeof e.url === 'string') summary['url'] = scrubSecrets(e.url, secrets);
  return summary;
}
