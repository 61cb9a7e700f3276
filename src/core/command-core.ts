import type { FundbotEvent } from '../domain/events.js';
import type { NeutralMessage } from './message.js';
import type { ChannelRef } from './ports.js';

export type Locale = 'en' | 'de';

/** Everything a command may know about who asked and where: one shape for every platform. */
export interface CommandContext {
  readonly user: { readonly id: string; readonly displayName: string };
  readonly channel: ChannelRef;
  /** Manage Server on Discord, workspace admin (or configured list) on Slack. Checked again by the core. */
  readonly canAdminister: boolean;
  /** The user's or client's locale as the platform reports it (e.g. 'de', 'en-US'); the channel setting wins. */
  readonly platformLocale?: string;
}

export type OptionValue = string | number | boolean;

export interface CommandInvocation {
  /** The command's canonical name (src/domain/command-definitions.ts `name`), whatever the platform called it. */
  readonly name: string;
  readonly options: Readonly<Record<string, OptionValue | undefined>>;
  readonly context: CommandContext;
}

/**
 * The platform-neutral command core. Adapters turn their platform's input into
 * a {@link CommandInvocation}, call {@link CommandCore.execute} and render the
 * returned {@link NeutralMessage}. A user's mistake comes back as a private
 * message, never as a thrown error.
 */
export interface CommandCore {
  execute(invocation: CommandInvocation): Promise<NeutralMessage>;
  /**
   * The workspace overview (its projects, funding, channels, health) in the workspace's language, for
   * places that are no command: the Slack App Home. Optional: test cores and the console have none.
   */
  overview?(channel: ChannelRef): Promise<NeutralMessage>;
  /**
   * The App Home's delivery-trace section (issue 32, item 2): the workspace's channels with subscriptions and
   * each one's last notices, in the workspace's language. Optional like `overview`.
   */
  noticesOverview?(channel: ChannelRef): Promise<NeutralMessage>;
  /** Suggestions for an option marked `autocomplete` (at most 25). */
  autocomplete(
    commandName: string,
    optionName: string,
    partial: string,
    context: CommandContext,
  ): Promise<readonly { readonly name: string; readonly value: string }[]>;
  /**
   * Renders an engine event as a notice in the channel's locale, its times on the clock of
   * `timeZone` (the channel's, from {@link CommandCore.timeZoneFor}; the configured zone when absent).
   */
  renderNotice(event: FundbotEvent, locale: Locale, timeZone?: string): NeutralMessage;
  /** The locale configured for a channel (channel setting, then workspace, then default). */
  localeFor(channel: ChannelRef): Promise<Locale>;
  /**
   * The IANA zone a channel's times are shown in: its quiet-hours zone when it set one
   * (`/quiet … Europe/Berlin`), else the configured digest zone (the projects' day).
   */
  timeZoneFor(channel: ChannelRef): Promise<string>;
}
