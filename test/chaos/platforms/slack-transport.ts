/**
 * The `fetch` the chaos world gives one process's Slack Web API clients (@slack/web-api's `fetch` option): the
 * real WebClient, the real poster and its error classification above it; below it, the wire (exchange.ts) and
 * the Slack model, on the world's clock. Timeouts are the client's configured ones on the world's clock, so an
 * answer 25 s late is late in the bot's terms too.
 */
import type { webApi } from '@slack/bolt';
import { parseForm } from '../../fakes/slack/http-bodies.js';
import type { PlatformFaults } from '../platform-faults.js';
import type { RequestCategory } from '../vocabulary.js';
import { roleOf, visibleStrings } from './channel-timeline.js';
import { type ExchangeDeps, exchange, type JournalEntry } from './exchange.js';
import type { SlackModel } from './slack-model.js';

export const slackRequestCategories: Readonly<Record<string, RequestCategory>> = {
  'chat.postMessage': 'post',
  'files.completeUploadExternal': 'post',
  'conversations.history': 'look',
  'conversations.replies': 'look',
  'chat.update': 'edit',
};

/** How undici's fetch fails: a TypeError whose cause carries the socket's code. */
function fetchFailed(code: string): Error {
  return new TypeError('fetch failed', { cause: Object.assign(new Error(`connect ${code}`), { code }) });
}

export const slackWireErrors = {
  timeout: () => new DOMException('The operation was aborted due to timeout', 'TimeoutError'),
  reset: () => fetchFailed('ECONNRESET'),
  refused: () => fetchFailed('ECONNREFUSED'),
};

export function postKindOf(text: string): NonNullable<JournalEntry['postKind']> {
  const role = roleOf(text);
  if (role !== 'notice') return role;
  return /\d+ new supporters/.test(text) ? 'batch' : 'notice';
}

export function slackFetch(
  model: SlackModel,
  faults: PlatformFaults,
  deps: Omit<ExchangeDeps, 'errors'>,
): webApi.FetchFunction {
  return async (url, init) => {
    const request = new Request(url, {
      method: init?.method ?? 'POST',
      headers: init?.headers ?? {},
      body: init?.body ?? null,
    });
    const path = new URL(request.url).pathname;
    const upload = /^\/upload\/([A-Z0-9]+)$/.exec(path);
    if (upload) {
      const bytes = (await request.arrayBuffer()).byteLength;
      const reply = await exchange(
        { ...deps, errors: slackWireErrors },
        { platform: 'slack', category: 'other', channel: '', key: 'upload', at: deps.clock.now(), text: '' },
        faults.decide({
          platform: 'slack',
          category: 'other',
          channel: '',
          key: 'upload',
          at: deps.clock.now(),
        }),
        () => model.receiveUpload(upload[1] ?? '', bytes),
      );
      return new Response(reply.status === 200 ? 'OK' : '', { status: reply.status });
    }
    const method = path.replace(/^\/api\//, '');
    const args = parseForm(await request.text());
    const category = slackRequestCategories[method] ?? 'other';
    const channel = String(args['channel'] ?? args['channel_id'] ?? '');
    const metadata = args['metadata'] as { event_payload?: { event_id?: unknown } } | undefined;
    const text = visibleStrings({ text: args['text'], blocks: args['blocks'] }).join('\n');
    const key =
      method === 'files.completeUploadExternal'
        ? `upload:${channel}`
        : typeof metadata?.event_payload?.event_id === 'string'
          ? metadata.event_payload.event_id
          : method;
    const identity = { platform: 'slack' as const, category, channel, key, at: deps.clock.now() };
    const reply = await exchange(
      { ...deps, errors: slackWireErrors },
      {
        ...identity,
        text: category === 'post' ? text : '',
        ...(category === 'post'
          ? { postKind: method === 'files.completeUploadExternal' ? ('digest' as const) : postKindOf(text) }
          : {}),
      },
      faults.decide(identity),
      () => model.call(method, args),
    );
    return new Response(JSON.stringify(reply.body), {
      status: reply.status,
      headers: { 'content-type': 'application/json; charset=utf-8', ...reply.headers },
    });
  };
}
