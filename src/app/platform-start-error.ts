import { envVars } from '../config/index.js';

export type ChatPlatform = 'discord' | 'slack';

/** Network failures: the platform was not reached, so its token was never checked. */
const UNREACHABLE_CODES = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
]);

/** Answers of a platform that refused the token. */
const REJECTED =
  /invalid_auth|not_authed|token_revoked|account_inactive|TokenInvalid|An invalid token|401|Unauthorized/i;

const platforms: Record<ChatPlatform, { name: string; tokenVar: string; where: string; host: string }> = {
  slack: {
    name: 'Slack',
    tokenVar: envVars.slackBotToken,
    where:
      'the Bot User OAuth Token (xoxb-…, Slack app → OAuth & Permissions), and check that the app is installed',
    host: 'slack.com',
  },
  discord: {
    name: 'Discord',
    tokenVar: envVars.discordToken,
    where: 'the bot token (Discord Developer Portal → your application → Bot → Reset Token)',
    host: 'discord.com',
  },
};

/**
 * The start-up error of a chat adapter, told apart: the platform rejected the token
 * (name the variable to fix) or could not be reached at all (DNS, refused
 * connection, timeout: the token was never checked, so do not send the operator to
 * replace it). Variable names come from the one table, `envVars`. The original error
 * stays as `cause` for the log; the message carries only error codes, never a token.
 */
export function platformStartError(platform: ChatPlatform, error: unknown): Error {
  const p = platforms[platform];
  const chain = causeChain(error);
  // The wrong FUNDBOT_ENCRYPTION_KEY: its own message says what to do (restore the key), nothing to add.
  const keyMismatch = chain.find(
    (e) => (e as { code?: unknown } | null)?.code === 'fundbot_encryption_key_mismatch',
  );
  if (keyMismatch instanceof Error) return keyMismatch;
  const code = chain.map(errorCode).find((c) => c !== undefined && UNREACHABLE_CODES.has(c));
  if (code !== undefined) {
    return new Error(
      `could not reach ${p.name} (${code}): check DNS, the network, a proxy or firewall between this host and ${p.host}; ${p.tokenVar} was not checked`,
      { cause: error },
    );
  }
  const rejected = chain.map(rejectionOf).find((r) => r !== undefined);
  if (rejected !== undefined) {
    return new Error(`${p.name} rejected ${p.tokenVar} (${rejected}): put ${p.where} in ${p.tokenVar}`, {
      cause: error,
    });
  }
  const last = chain.at(-1);
  const name = last instanceof Error ? last.name : 'unknown error';
  return new Error(`${p.name} did not start (${name}): see the cause below; ${p.tokenVar} may be fine`, {
    cause: error,
  });
}

function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && chain.length < 8 && !chain.includes(current)) {
    chain.push(current);
    const next = (current as { cause?: unknown; original?: unknown }).cause;
    current = next ?? (current as { original?: unknown }).original;
  }
  return chain;
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) return code;
  // Some clients put the errno only in the message ("getaddrinfo ENOTFOUND slack.com").
  const message = error instanceof Error ? error.message : '';
  return [...UNREACHABLE_CODES].find((c) => message.includes(c));
}

function rejectionOf(error: unknown): string | undefined {
  const data = (error as { data?: { error?: unknown } } | null)?.data?.error;
  if (typeof data === 'string' && REJECTED.test(data)) return data;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && REJECTED.test(code)) return code;
  const message = error instanceof Error ? error.message : '';
  // Only the adapter's own wrapper says "rejected" regardless of the cause: look at library errors.
  const match = REJECTED.exec(message);
  return match && !message.startsWith(`Slack rejected`) && !message.startsWith('Discord login failed')
    ? match[0]
    : undefined;
}
