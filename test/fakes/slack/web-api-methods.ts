/**
 * The fake Slack's Web API methods and their successful answers (or Slack's
 * `ok: false` errors); unknown methods answer `unknown_method`. Authentication,
 * rate limits and injected failures come before this, in `web-api-endpoint.ts`.
 */
import type { FileUploads } from './file-uploads.js';
import type { MessageStore } from './message-store.js';
import type { SocketMode } from './socket-mode.js';
import type { WorkspaceDirectory } from './workspace-directory.js';

export interface WebApiMethodDeps {
  readonly teamId: string;
  readonly botUserId: string;
  readonly messages: MessageStore;
  readonly directory: WorkspaceDirectory;
  readonly files: FileUploads;
  readonly socketMode: SocketMode;
}

export type WebApiMethods = (method: string, args: Record<string, unknown>) => Record<string, unknown>;

export function createWebApiMethods(deps: WebApiMethodDeps): WebApiMethods {
  const { teamId, botUserId, messages, directory, files, socketMode } = deps;
  return (method, args) => {
    switch (method) {
      case 'auth.test':
        return {
          ok: true,
          url: 'https://fake.slack.example/',
          team: 'Fake',
          user: 'fundbot',
          team_id: teamId,
          user_id: botUserId,
          bot_id: 'B0BOT',
        };
      case 'chat.postMessage': {
        // As Slack: no post where the bot is not a member (removed, never invited) or that is archived.
        const refusal = directory.postRefusal(String(args.channel));
        if (refusal) return { ok: false, error: refusal };
        const message = messages.postMessage(args);
        return {
          ok: true,
          channel: args.channel,
          ts: message.ts,
          message: { text: args.text, blocks: args.blocks },
        };
      }
      case 'chat.delete': {
        // A bot token deletes the bot's own messages (chat:write), no one else's.
        const target = messages.messages.get(String(args.channel))?.find((m) => m.ts === String(args.ts));
        if (!target) return { ok: false, error: 'message_not_found' };
        if (target.user !== botUserId) return { ok: false, error: 'cant_delete_message' };
        messages.deleteMessage(String(args.channel), String(args.ts));
        return { ok: true, channel: args.channel, ts: args.ts };
      }
      case 'chat.update': {
        // As Slack: the message keeps its ts and place; its text and blocks are replaced.
        const updated = messages.updateMessage(args);
        if (!updated) return { ok: false, error: 'message_not_found' };
        return { ok: true, channel: args.channel, ts: args.ts, text: updated.text };
      }
      case 'conversations.history':
      case 'conversations.replies': {
        // As Slack: a bot reads only where it is a member (a look while it is removed is refused, not empty).
        const refusal = directory.readRefusal(String(args.channel));
        if (refusal) return { ok: false, error: refusal };
        return method === 'conversations.history' ? messages.history(args) : messages.replies(args);
      }
      case 'users.info':
        return directory.usersInfo(args);
      case 'files.getUploadURLExternal':
        return files.getUploadURLExternal(args);
      case 'files.completeUploadExternal':
        return files.completeUploadExternal(args);
      case 'conversations.info':
        return directory.conversationsInfo(args);
      case 'conversations.open':
        return directory.openIm(args);
      case 'apps.connections.open':
        return { ok: true, url: socketMode.connectionUrl() };
      default:
        return { ok: false, error: 'unknown_method' };
    }
  };
}
