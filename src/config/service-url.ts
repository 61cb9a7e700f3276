import type { ConfigProblem } from './config-problem.js';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The one check of a service base URL the bot sends secrets to (the platform's API,
 * Slack's Web API, Discord's REST API): absolute, http(s), plain http only to this
 * machine (a local fake or simulator), no credentials, no query or fragment.
 * Returns the URL without trailing slashes, or undefined after adding a problem.
 */
export function checkServiceUrl(
  value: string,
  where: string,
  secrets: string,
  problems: ConfigProblem[],
): URL | undefined {
  const problem = (message: string, fix: string) =>
    problems.push({ code: 'invalid_value', path: where, message, fix });
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    problem('is not an absolute URL', 'write it with scheme and host, e.g. https://api.example.org');
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    problem('must be an http(s) URL', "use the service's https:// address");
    return undefined;
  }
  if (url.protocol === 'http:' && !LOCAL_HOSTS.has(url.hostname)) {
    problem(
      `uses plain http to a remote host, which would send ${secrets} unencrypted`,
      'use https://, or http:// only for localhost (a local fake or the simulator)',
    );
    return undefined;
  }
  if (url.username !== '' || url.password !== '') {
    problem(
      'contains credentials',
      `remove user:password@ from the URL: ${secrets} come from their own variables`,
    );
    return undefined;
  }
  if (url.search !== '' || url.hash !== '') {
    problem('has a query or fragment', 'give only scheme, host and optional base path');
    return undefined;
  }
  return url;
}

/**
 * The one rule for the public URL (`publicUrl`, FUNDBOT_PUBLIC_URL, `commands:discord --public-url`): the https
 * base under which Discord and Slack reach fundbot, or http to this machine for a local trial (behind a tunnel).
 * The bot and the command-registration script check it here alike. Returns the base without trailing slashes,
 * or undefined after adding a problem.
 */
export function checkPublicUrl(value: string, where: string, problems: ConfigProblem[]): string | undefined {
  const url = checkServiceUrl(value, where, 'the install redirect and interactions', problems);
  return url && baseOf(url);
}

/** The URL as a base without trailing slashes. */
export function baseOf(url: URL): string {
  return url.href.replace(/\/+$/, '');
}
