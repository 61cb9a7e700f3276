/**
 * Slack in the chaos world's process: the fake Slack's own model of a workspace (test/fakes/slack: message
 * store with `ts` on arrival, threads, conversations.history and .replies newest first in pages of 15, chat.update,
 * conversations.info, not_in_channel and is_archived from the channel's state) called without HTTP, on the world's
 * clock, plus what the chaos needs on top: conversations.history and .replies once a minute per workspace (429
 * with Retry-After before that, as for apps outside the Marketplace) and the files.uploadV2 steps sharing a file
 * into its channel as a message (the digest's chart), as Slack does. Every message that lands is told to the
 * `onLanded` listeners (the `message` events the app is subscribed to: world/own-message-events.ts).
 */
import type { FileUploads } from '../../fakes/slack/file-uploads.js';
import {
  createMessageStore,
  type FakeSlackMessage,
  type MessageStore,
} from '../../fakes/slack/message-store.js';
import type { SocketMode } from '../../fakes/slack/socket-mode.js';
import { createWebApiMethods } from '../../fakes/slack/web-api-methods.js';
import { createWorkspaceDirectory, type WorkspaceDirectory } from '../../fakes/slack/workspace-directory.js';
import type { ManualClock } from '../../support/manual-clock.js';
import type { ChannelTimeline } from './channel-timeline.js';

export const chaosSlack = {
  teamId: 'T0CHAOS',
  botUserId: 'U0BOT',
  botToken: 'xoxb-chaos',
  apiUrl: 'https://slack.chaos.invalid/api/',
} as const;

/** Slack's answer to one call: the HTTP status, the JSON body and headers (Retry-After). */
export interface SlackAnswer {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly headers?: Record<string, string>;
}

export interface SlackModel {
  readonly messages: MessageStore;
  readonly directory: WorkspaceDirectory;
  /** What each channel showed over time (every message with the time it appeared or changed). */
  readonly timeline: ChannelTimeline;
  /** Processes one Web API call now (the world's time). */
  call(method: string, args: Record<string, unknown>): SlackAnswer;
  /** The bytes of a files.uploadV2 upload arrived at its upload URL. */
  receiveUpload(fileId: string, bytes: number): SlackAnswer;
  /** Told of every message that lands (a post, a reply, a file share), when it lands. */
  onLanded(listener: (message: FakeSlackMessage) => void): void;
}

const landingMethods = new Set(['chat.postMessage', 'files.completeUploadExternal']);

const lookMethods = new Set(['conversations.history', 'conversations.replies']);

export function createSlackModel(
  clock: ManualClock,
  options: { readonly lookIntervalMs: number; readonly timeline: ChannelTimeline },
): SlackModel {
  const messages = createMessageStore({
    botUserId: chaosSlack.botUserId,
    now: () => clock.now(),
    pageLimit: 15,
  });
  const directory = createWorkspaceDirectory([]);
  const { timeline } = options;
  const lastLookAt = new Map<string, number>();
  const uploads = new Map<string, { filename: string; arrived: boolean }>();
  const landedListeners: ((message: FakeSlackMessage) => void)[] = [];
  // File ids count up (not random): they show in the channel's trace, which a seed must replay the same.
  let files = 0;
  const methods = createWebApiMethods({
    teamId: chaosSlack.teamId,
    botUserId: chaosSlack.botUserId,
    messages,
    directory,
    files: {} as FileUploads,
    socketMode: {} as SocketMode,
  });

  /** files.completeUploadExternal: the files shared into `channel_id` as one message of the bot. */
  function shareFiles(args: Record<string, unknown>): SlackAnswer {
    const files = Array.isArray(args.files) ? (args.files as { id: string; title?: string }[]) : [];
    const shared = files.map((f) => ({ ...f, upload: uploads.get(f.id) }));
    if (shared.some((f) => !f.upload?.arrived))
      return { status: 200, body: { ok: false, error: 'file_not_found' } };
    const channel = String(args.channel_id);
    const refusal = directory.postRefusal(channel);
    if (refusal) return { status: 200, body: { ok: false, error: refusal } };
    const message = messages.addMessage({
      channel,
      user: chaosSlack.botUserId,
      bot_id: 'B0BOT',
      text: typeof args.initial_comment === 'string' ? args.initial_comment : '',
      ...(Array.isArray(args.blocks) ? { blocks: args.blocks } : {}),
      ...(typeof args.thread_ts === 'string' ? { thread_ts: args.thread_ts } : {}),
      files: shared.map((f) => ({ id: f.id, name: f.upload?.filename ?? '', title: f.title ?? '' })),
    });
    return {
      status: 200,
      body: { ok: true, files: shared.map((f) => ({ id: f.id, title: f.title })), ts: message.ts },
    };
  }

  function answer(method: string, args: Record<string, unknown>): SlackAnswer {
    if (lookMethods.has(method)) {
      const waitMs =
        (lastLookAt.get(method) ?? Number.NEGATIVE_INFINITY) + options.lookIntervalMs - clock.now();
      if (waitMs > 0) {
        return {
          status: 429,
          body: { ok: false, error: 'ratelimited' },
          headers: { 'retry-after': String(Math.ceil(waitMs / 1000)) },
        };
      }
      lastLookAt.set(method, clock.now());
    }
    if (method === 'files.getUploadURLExternal') {
      files += 1;
      const fileId = `F${String(files).padStart(8, '0')}`;
      uploads.set(fileId, { filename: String(args.filename), arrived: false });
      return {
        status: 200,
        body: { ok: true, upload_url: `https://files.slack.chaos.invalid/upload/${fileId}`, file_id: fileId },
      };
    }
    if (method === 'files.completeUploadExternal') return shareFiles(args);
    return { status: 200, body: methods(method, args) };
  }

  return {
    messages,
    directory,
    timeline,
    call(method, args) {
      const result = answer(method, args);
      timeline.observe(clock.now(), 'slack', messages.messages);
      const ts = result.body['ts'];
      if (landingMethods.has(method) && result.body['ok'] === true && typeof ts === 'string') {
        const channel = String(args['channel'] ?? args['channel_id']);
        const message = messages.messages.get(channel)?.find((m) => m.ts === ts);
        if (message) for (const listener of landedListeners) listener(message);
      }
      return result;
    },
    receiveUpload(fileId, bytes) {
      const upload = uploads.get(fileId);
      if (!upload) return { status: 404, body: { ok: false } };
      upload.arrived = bytes > 0;
      return { status: 200, body: { ok: true } };
    },
    onLanded(listener) {
      landedListeners.push(listener);
    },
  };
}
