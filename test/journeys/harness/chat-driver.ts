/**
 * One chat platform in one mode, as a journey sees it from outside the bot: the fake platform it talks to, how
 * a member runs a command there, and what the channel shows afterwards. The chat journey (chat-journey.ts) is
 * written once against this and run for Discord (gateway, HTTP interactions) and Slack (Socket Mode, HTTP).
 */
import type { BotProcess } from './bot-process.js';

export type Platform = 'discord' | 'slack';

/** One string of a rendered message, and whether the platform reads markup in it (Slack plain_text: no). */
export interface RenderedText {
  readonly text: string;
  readonly parsed: boolean;
  /** Slack's notification text: shown unformatted (no look-alikes on purpose), but parsed for mentions and links. */
  readonly notification?: boolean;
}

/** A message in a channel (or a thread of it), as its members see it. */
export interface ChannelPost {
  /** Discord message id, or Slack `ts`. */
  readonly id: string;
  /** The channel it is in; on Discord a thread is a channel of its own (its id is its parent message's). */
  readonly channel: string;
  /** The message whose thread this is a reply in (Slack `thread_ts`, Discord the thread's id), if any. */
  readonly threadOf?: string;
  /** What a reader sees: markup and invisible neutralising characters removed. */
  readonly text: string;
  /** Every string as rendered for the platform, for checks that nothing in it is live markup. */
  readonly raw: readonly RenderedText[];
  /** Bytes of the files attached to it. */
  readonly files: readonly Uint8Array[];
  /** The native shape: a Discord embed, Slack blocks, or a Slack file share. */
  readonly shape: 'embed' | 'blocks' | 'file';
  /** The id the bot posted it under (Discord nonce, Slack metadata event id), for the exactly-once checks. */
  readonly deliveryKey?: string;
  /** Discord only: the message's `allowed_mentions`. */
  readonly allowedMentions?: unknown;
}

/** An edit of a posted message (a correction, the daily thread's running total). */
export interface ChannelEdit {
  readonly channel: string;
  readonly id: string;
  readonly text: string;
  readonly raw: readonly RenderedText[];
}

/** One message of a command's answer. */
export interface AnswerMessage {
  /** Private: only the member who ran the command sees it. */
  readonly visibility: 'public' | 'private';
  readonly text: string;
  readonly raw: readonly RenderedText[];
  readonly files: readonly Uint8Array[];
  /** When the platform received it (epoch ms). */
  readonly at: number;
}

export interface CommandRun {
  /** When the command was sent (epoch ms). */
  readonly sentAt: number;
  /** The answer's first message (a deferral's placeholder is not one); rejects after the deadline. */
  answer(timeoutMs?: number): Promise<AnswerMessage>;
  /** The `n`th message of the answer (0 = the answer, 1 = its follow-up...). */
  message(n: number, timeoutMs?: number): Promise<AnswerMessage>;
  /** Every message of the answer so far. */
  messages(): readonly AnswerMessage[];
  /** How long until the platform had its acknowledgement (Slack ack, Discord callback). */
  acknowledgedWithinMs(): Promise<number>;
}

export interface CommandOptions {
  /** Run by a member who may administer the server/workspace (Manage Server, Slack workspace admin). */
  readonly admin?: boolean;
  /** Another channel than the journey's main one. */
  readonly channel?: string;
}

export interface ChatDriver {
  readonly platform: Platform;
  /** e.g. "Discord gateway". */
  readonly mode: string;
  /** The channel the journey subscribes. */
  readonly channel: string;
  /** A second channel where the bot can post (language, unsubscribe). */
  readonly otherChannel: string;
  /** A channel where the bot cannot post (Slack: not a member; Discord: its role may not send there). */
  readonly lockedChannel: string;
  /** The config file's section for this platform (`{ discord: … }` or `{ slack: … }`). */
  configSection(): Promise<Record<string, unknown>>;
  /** The platform's secrets and URLs, as an operator exports them. */
  env(): Record<string, string>;
  /** Values that must never appear in a log line or a message. */
  readonly secrets: readonly string[];
  /** Waits until the bot is reachable on this platform (gateway IDENTIFY, Socket Mode connection, endpoint). */
  connected(bot: BotProcess): Promise<void>;
  /** Runs `/name args…` (Slack: `/fundbot name args…`) the way a member would. */
  command(name: string, args?: readonly string[], options?: CommandOptions): CommandRun;
  /** Messages the bot posted in channels and threads, oldest first. */
  posts(): readonly ChannelPost[];
  edits(): readonly ChannelEdit[];
  /** Everything the fake recorded, as text: searched for secrets and supporter-only content. */
  recordedText(): string;
  /**
   * The platform takes the bot's next post to the main channel but answers it, and lands its message, `lateMs`
   * later (long after the bot's client gave up); on Discord its nonce window is short meanwhile.
   */
  answerNextPostLate(lateMs: number): LateAnswer;
  close(): Promise<void>;
}

/** A late answer armed by {@link ChatDriver.answerNextPostLate}. */
export interface LateAnswer {
  /** Whether the late post has landed in the channel by now. */
  landed(): boolean;
  /** The platform behaves as before (Discord's nonce window). */
  done(): void;
}

const invisible = /[\u200b-\u200d\u2060\ufeff]/g;

/** Discord: what a reader sees of escaped markdown (the escapes and the neutralising characters are invisible). */
export function discordVisible(text: string): string {
  return text.replace(invisible, '').replace(/\\([\\*_~|`[\]#>.-])/g, '$1');
}

/** Slack: what a reader sees of mrkdwn (entities decoded, link labels, bold/strike markers dropped). */
export function slackVisibleMrkdwn(text: string): string {
  return text
    .replace(invisible, '')
    .replace(/<[^<>|]+\|([^<>]+)>/g, '$1')
    .replace(/\*([^*\n]+)\*/g, '$1')
    .replace(/~([^~\n]+)~/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** Slack plain_text: shown as written, only the neutralising characters are invisible. */
export function slackVisiblePlain(text: string): string {
  return text.replace(invisible, '');
}

/** The first 8 bytes of every PNG file. */
export function isPng(bytes: Uint8Array): boolean {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  return bytes.length > 1_000 && signature.every((b, i) => bytes[i] === b);
}
