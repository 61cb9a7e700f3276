/**
 * An admin's browser going through fundbot's Slack install flow (Bolt's InstallProvider): `/slack/install` sends it
 * to Slack's consent screen with a state and sets a cookie; Slack sends it back to `/slack/oauth_redirect` with a
 * code. Redirects are not followed, so a test sees each answer.
 */
import type { FakeSlackOAuth } from '../fakes/slack/fake-slack-oauth.js';

export interface InstallStart {
  /** The answer to /slack/install (302 to Slack's consent screen). */
  readonly response: Response;
  /** Where it sent the browser: Slack's consent URL. */
  readonly consent: URL;
  readonly state: string;
  /** The state cookie Bolt set (`name=value`), '' when none. */
  readonly cookie: string;
}

export async function beginInstall(base: string): Promise<InstallStart> {
  const response = await fetch(`${base}/slack/install`, { redirect: 'manual' });
  const consent = new URL(response.headers.get('location') ?? '');
  return {
    response,
    consent,
    state: consent.searchParams.get('state') ?? '',
    cookie: (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '',
  };
}

/** Slack's redirect back with `code` and `state`; the browser carries `cookie` when there is one. */
export function finishInstall(base: string, code: string, state: string, cookie?: string): Promise<Response> {
  return fetch(`${base}/slack/oauth_redirect?code=${code}&state=${encodeURIComponent(state)}`, {
    headers: cookie ? { cookie } : {},
    redirect: 'manual',
  });
}

/** The whole flow for `workspace` on the fake Slack; resolves with the redirect's answer (200 when installed). */
export async function installWorkspace(
  base: string,
  fake: FakeSlackOAuth,
  workspace: Parameters<FakeSlackOAuth['issueCode']>[0],
): Promise<Response> {
  const { state, cookie } = await beginInstall(base);
  return finishInstall(base, fake.issueCode(workspace), state, cookie);
}
