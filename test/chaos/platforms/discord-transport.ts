/**
 * The `makeRequest` the chaos world gives one process's Discord REST client (@discordjs/rest's option): the real
 * REST client (its retries of 5xx, resets and timeouts, its 429 handling), the real posters above it; below it,
 * the wire (exchange.ts) and the Discord model, on the world's clock. The client rejects a 429 instead of waiting
 * it out (discordPostingRestOptions): the delivery lane waits on the world's clock.
 */
import type { RESTOptions } from 'discord.js';
import type { PlatformFaults } from '../platform-faults.js';
import type { RequestCategory } from '../vocabulary.js';
import { visibleStrings } from './channel-timeline.js';
import type { DiscordCall, DiscordModel } from './discord-model.js';
import { type ExchangeDeps, exchange } from './exchange.js';
import { postKindOf } from './slack-transport.js';

const coded = (message: string, code: string) => Object.assign(new Error(message), { code });

export const discordWireErrors = {
  timeout: () => new DOMException('This operation was aborted', 'AbortError'),
  reset: () => coded('read ECONNRESET', 'ECONNRESET'),
  refused: () => coded('connect ECONNREFUSED 127.0.0.1:443', 'ECONNREFUSED'),
};

async function readCall(url: string, init: Parameters<RESTOptions['makeRequest']>[1]): Promise<DiscordCall> {
  const request = new Request(url, {
    method: init.method ?? 'GET',
    headers: (init.headers ?? {}) as Record<string, string>,
    body: (init.body ?? null) as NonNullable<RequestInit['body']> | null,
  });
  const parsed = new URL(request.url);
  const path = decodeURIComponent(parsed.pathname).replace(/^\/api\/v\d+/, '');
  const contentType = request.headers.get('content-type') ?? '';
  let body: Record<string, unknown> = {};
  const files: { filename: string; size: number }[] = [];
  if (contentType.startsWith('multipart/form-data')) {
    for (const [field, value] of (await request.formData()).entries()) {
      if (typeof value === 'string') {
        if (field === 'payload_json') body = JSON.parse(value) as Record<string, unknown>;
      } else files.push({ filename: value.name, size: value.size });
    }
  } else {
    const text = await request.text();
    if (text) body = JSON.parse(text) as Record<string, unknown>;
  }
  return { method: request.method, path, query: parsed.searchParams, body, files };
}

export function categoryOf(call: Pick<DiscordCall, 'method' | 'path'>): {
  category: RequestCategory;
  channel: string;
} {
  const channel = /^\/channels\/(\d+)/.exec(call.path)?.[1] ?? '';
  if (/^\/channels\/\d+\/messages$/.test(call.path)) {
    return { category: call.method === 'POST' ? 'post' : 'look', channel };
  }
  if (call.method === 'PATCH') return { category: 'edit', channel };
  return { category: 'other', channel };
}

export function discordMakeRequest(
  model: DiscordModel,
  faults: PlatformFaults,
  deps: Omit<ExchangeDeps, 'errors'>,
): RESTOptions['makeRequest'] {
  return async (url, init) => {
    const call = await readCall(url, init);
    const { category, channel } = categoryOf(call);
    const text = visibleStrings(call.body['embeds']).join('\n');
    const key =
      category === 'post' ? String(call.body['nonce'] ?? 'no-nonce') : `${call.method} ${call.path}`;
    const identity = { platform: 'discord' as const, category, channel, key, at: deps.clock.now() };
    const reply = await exchange(
      { ...deps, errors: discordWireErrors },
      {
        ...identity,
        text: category === 'post' ? text : '',
        ...(category === 'post'
          ? { postKind: call.files.length > 0 ? ('digest' as const) : postKindOf(text) }
          : {}),
      },
      faults.decide(identity),
      () => model.call(call),
    );
    const body = reply.status === 204 ? null : JSON.stringify(reply.body);
    return new Response(body, {
      status: reply.status,
      headers: { 'content-type': 'application/json', ...reply.headers },
    });
  };
}
