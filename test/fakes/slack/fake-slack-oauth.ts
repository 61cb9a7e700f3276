/**
 * A fake Slack Web API for many workspaces on 127.0.0.1: `oauth.v2.access`
 * exchanges codes it issued for a bot token of that workspace, and the methods a
 * workspace's bot calls (auth.test, chat.postMessage, users.info) answer per token,
 * so a test sees which workspace's token every call carried. Also records what
 * `respond()` sends to response URLs.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendJson } from './http-bodies.js';

export interface OAuthFakeCall {
  readonly method: string;
  readonly args: Record<string, string>;
  /** Bearer token, or undefined (oauth.v2.access authenticates with the client credentials). */
  readonly token: string | undefined;
}

export interface FakeWorkspace {
  readonly teamId: string;
  readonly name: string;
  /** Users of this workspace who are admins. */
  readonly admins?: readonly string[];
}

export interface FakeSlackOAuth {
  /** `http://127.0.0.1:<port>/api/` for the Web API's `slackApiUrl`. */
  readonly apiUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly calls: readonly OAuthFakeCall[];
  readonly responses: readonly { readonly id: string; readonly body: Record<string, unknown> }[];
  /** What Slack would put in the redirect after the admin approved: a one-time code for the workspace. */
  issueCode(workspace: FakeWorkspace): string;
  /** The bot token issued to a workspace (for checking it is stored encrypted and used). */
  tokenOf(teamId: string): string | undefined;
  responseUrl(): string;
  close(): Promise<void>;
}

export async function startFakeSlackOAuth(): Promise<FakeSlackOAuth> {
  const clientId = '1111.2222';
  const clientSecret = `secret-${randomBytes(8).toString('hex')}`;
  const codes = new Map<string, FakeWorkspace>();
  const tokens = new Map<string, FakeWorkspace>();
  const calls: OAuthFakeCall[] = [];
  const responses: { id: string; body: Record<string, unknown> }[] = [];
  let ts = 1_700_000_000;

  function result(method: string, args: Record<string, string>, token: string | undefined) {
    if (method === 'oauth.v2.access') {
      const workspace = codes.get(args.code ?? '');
      if (args.client_id !== clientId || args.client_secret !== clientSecret) {
        return { ok: false, error: 'invalid_client_id' };
      }
      if (!workspace) return { ok: false, error: 'invalid_code' };
      codes.delete(args.code ?? '');
      const accessToken = `xoxb-${workspace.teamId}-${randomBytes(12).toString('hex')}`;
      tokens.set(accessToken, workspace);
      return {
        ok: true,
        app_id: 'A0FUNDBOT',
        authed_user: { id: `U0INSTALL${workspace.teamId}` },
        scope: 'commands,chat:write,files:write,users:read',
        token_type: 'bot',
        access_token: accessToken,
        bot_user_id: `U0BOT${workspace.teamId}`,
        team: { id: workspace.teamId, name: workspace.name },
        enterprise: null,
        is_enterprise_install: false,
      };
    }
    const workspace = token ? tokens.get(token) : undefined;
    if (!workspace) return { ok: false, error: 'invalid_auth' };
    switch (method) {
      case 'auth.test':
        return {
          ok: true,
          team_id: workspace.teamId,
          team: workspace.name,
          user_id: `U0BOT${workspace.teamId}`,
          bot_id: `B0BOT${workspace.teamId}`,
          url: 'https://fake.slack.example/',
        };
      case 'chat.postMessage':
        ts += 1;
        return { ok: true, channel: args.channel, ts: `${ts}.000100` };
      // Hosted fundbot: the connect form, the App Home tab, private answers, the subscribe check.
      case 'chat.postEphemeral':
        ts += 1;
        return { ok: true, message_ts: `${ts}.000200` };
      case 'views.open':
        return args.trigger_id
          ? { ok: true, view: { id: `V0${ts}` } }
          : { ok: false, error: 'invalid_trigger_id' };
      case 'views.publish':
        return args.user_id
          ? { ok: true, view: { id: `V0HOME${args.user_id}` } }
          : { ok: false, error: 'invalid_arguments' };
      case 'conversations.info':
        return { ok: true, channel: { id: args.channel, is_member: true, is_archived: false } };
      // The reward watch's direct message: the member's DM channel (D + user id), as the main fake names it.
      case 'conversations.open':
        return args.users
          ? { ok: true, channel: { id: `D${args.users}` } }
          : { ok: false, error: 'invalid_arguments' };
      case 'conversations.history':
        return { ok: true, messages: [], has_more: false };
      case 'users.info':
        return {
          ok: true,
          user: {
            id: args.user,
            team_id: workspace.teamId,
            name: String(args.user).toLowerCase(),
            is_admin: workspace.admins?.includes(String(args.user)) ?? false,
          },
        };
      default:
        return { ok: false, error: 'unknown_method' };
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const raw = Buffer.concat(await req.toArray()).toString('utf8');
    const respond = /^\/respond\/([a-f0-9]+)$/.exec(path);
    if (respond?.[1]) {
      responses.push({ id: respond[1], body: JSON.parse(raw) as Record<string, unknown> });
      return sendJson(res, 200, { ok: true });
    }
    const api = /^\/api\/([a-zA-Z0-9.]+)$/.exec(path);
    if (!api?.[1] || req.method !== 'POST') return sendJson(res, 404, { ok: false, error: 'not_found' });
    const args = Object.fromEntries(new URLSearchParams(raw));
    const auth = req.headers.authorization;
    // The client may send the credentials as HTTP Basic auth instead of form fields.
    if (auth?.startsWith('Basic ')) {
      const [id, secret] = Buffer.from(auth.slice(6), 'base64').toString('utf8').split(':');
      args.client_id ??= id ?? '';
      args.client_secret ??= secret ?? '';
    }
    const token = auth?.startsWith('Bearer ') ? auth.slice(7) : args.token;
    delete args.token;
    calls.push({ method: api[1], args, token });
    sendJson(res, 200, result(api[1], args, token));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => sendJson(res, 500, { ok: false, error: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;

  return {
    apiUrl: `${base}/api/`,
    clientId,
    clientSecret,
    calls,
    responses,
    issueCode(workspace) {
      const code = `code-${randomBytes(8).toString('hex')}`;
      codes.set(code, workspace);
      return code;
    },
    tokenOf: (teamId) => [...tokens].find(([, w]) => w.teamId === teamId)?.[0],
    responseUrl: () => `${base}/respond/${randomBytes(6).toString('hex')}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
