import { type CommandDefinition, findCommand } from '../domain/command-definitions.js';
import { errorSummary } from '../domain/error-summary.js';
import type { FundbotEvent } from '../domain/events.js';
import { singleLine } from '../domain/text.js';
import { limits } from '../domain/text-limits.js';
import { isStoreFailure } from '../lib/store.js';
import type { CommandContext, CommandCore, CommandInvocation, Locale } from './command-core.js';
import { type CommandCoreDeps, defaultFreshness, type Freshness } from './command-core-deps.js';
import { CommandRefusal } from './command-refusal.js';
import { languageCommand } from './commands/admin.js';
import { deadlineCommand, rollCallCommand } from './commands/campaign.js';
import { chartCommand } from './commands/chart.js';
import type { CommandHandler, CommandRun } from './commands/command-run.js';
import { blogCommand, supportersCommand } from './commands/feeds.js';
import { fundingCommand } from './commands/funding.js';
import { connectCommand, disconnectCommand, projectsCommand } from './commands/hosted.js';
import { digestCommand, helpCommand, statusCommand } from './commands/info.js';
import { lowStockCommand } from './commands/low-stock.js';
import { noticesCommand, noticesOverviewFields, whyCommand } from './commands/notices.js';
import { workspaceOverview } from './commands/overview.js';
import { pacingCommand, quietCommand } from './commands/pacing.js';
import { filterCommand, pingCommand } from './commands/ping-filter.js';
import { unwatchCommand, watchCommand } from './commands/reward-watch.js';
import { rewardCommand, rewardsCommand } from './commands/rewards.js';
import { subscribeCommand, subscriptionsCommand, unsubscribeCommand } from './commands/subscriptions.js';
import { threadCommand } from './commands/thread.js';
import { projectVisibleTo } from './hosted-projects.js';
import { catalogFor, localeFromTag } from './i18n/index.js';
import type { NeutralMessage } from './message.js';
import { renderNotice } from './notices/render-notice.js';
import { commandInvocationText } from './parse-command-text.js';
import type { ChannelRef } from './ports.js';

import type { LocaleSettings } from './settings/settings-store.js';

const handlers: Readonly<Record<string, CommandHandler>> = {
  funding: fundingCommand,
  chart: chartCommand,
  rewards: rewardsCommand,
  reward: rewardCommand,
  supporters: supportersCommand,
  blog: blogCommand,
  subscribe: subscribeCommand,
  unsubscribe: unsubscribeCommand,
  subscriptions: subscriptionsCommand,
  pacing: pacingCommand,
  quiet: quietCommand,
  thread: threadCommand,
  lowstock: lowStockCommand,
  // Issue 32 item 3c: the members' reward watch.
  watch: watchCommand,
  unwatch: unwatchCommand,
  deadline: deadlineCommand,
  rollcall: rollCallCommand,
  // Issue 32 item 2: the delivery trace.
  notices: noticesCommand,
  why: whyCommand,
  // Issue 32 item 6: pings and filters.
  ping: pingCommand,
  filter: filterCommand,
  language: languageCommand,
  digest: digestCommand,
  status: statusCommand,
  connect: connectCommand,
  disconnect: disconnectCommand,
  projects: projectsCommand,
  help: helpCommand,
};

/** A private error reply in the given language. */
export function privateError(locale: Locale, text: string): NeutralMessage {
  return { title: catalogFor(locale).errors.title, text, tone: 'error', private: true };
}

/**
 * Builds the platform-neutral {@link CommandCore}. It never imports a chat
 * library: adapters translate their platform's input into a
 * {@link CommandInvocation} and render the {@link NeutralMessage} it returns.
 *
 * - Every answer comes from the engine's cache ({@link ProjectReadModel});
 *   stale figures are labelled with their age, a read failure with nothing
 *   cached becomes a private, secret-free explanation.
 * - Admin commands are checked here again with `context.canAdminister`,
 *   whatever the platform's own permission settings said.
 * - A user's mistake (and any unexpected failure) comes back as a private
 *   message with tone 'error'; `execute` does not throw.
 */
export function createCommandCore(deps: CommandCoreDeps): CommandCore {
  const defaultLocale: Locale = deps.defaultLocale ?? 'en';
  const defaultTimeZone = deps.timeZone ?? 'UTC';
  const freshness: Freshness = { ...defaultFreshness, ...deps.freshness };

  async function localeSettings(channel: ChannelRef): Promise<LocaleSettings> {
    try {
      return await deps.settings.locales(channel);
    } catch (error) {
      // A broken settings store must not silence the bot: answer in the default language.
      deps.logger?.warn({ ...errorSummary(error) }, 'could not read the locale settings');
      return {};
    }
  }

  async function localeFor(channel: ChannelRef): Promise<Locale> {
    const settings = await localeSettings(channel);
    return settings.channel ?? settings.workspace ?? defaultLocale;
  }

  async function timeZoneFor(channel: ChannelRef): Promise<string> {
    try {
      return (await deps.pacing?.get(channel))?.quiet?.timeZone ?? defaultTimeZone;
    } catch (error) {
      // As with the language: a broken settings store shows times in the configured zone, never none.
      deps.logger?.warn({ ...errorSummary(error) }, 'could not read the pacing settings for the time zone');
      return defaultTimeZone;
    }
  }

  async function execute(invocation: CommandInvocation): Promise<NeutralMessage> {
    const { context } = invocation;
    const settings = await localeSettings(context.channel);
    const locale = settings.channel ?? settings.workspace ?? defaultLocale;
    // The user's own platform language helps with private errors only where nobody chose one.
    const errorLocale =
      settings.channel ?? settings.workspace ?? localeFromTag(context.platformLocale) ?? defaultLocale;

    const definition: CommandDefinition | undefined = findCommand(invocation.name);
    const handler = definition ? handlers[definition.name] : undefined;
    if (!definition || !handler) {
      return privateError(
        errorLocale,
        catalogFor(errorLocale).errors.unknownCommand(
          singleLine(invocation.name, limits.name),
          commandInvocationText('help', context.channel.platform),
        ),
      );
    }
    if (definition.admin && context.canAdminister !== true) {
      return privateError(errorLocale, catalogFor(errorLocale).errors.needAdmin(context.channel.platform));
    }
    const run: CommandRun = {
      invocation,
      definition,
      locale,
      t: catalogFor(locale),
      timeZone: await timeZoneFor(context.channel),
      now: deps.clock.now(),
      deps,
      freshness,
    };
    try {
      return await handler(run);
    } catch (error) {
      if (error instanceof CommandRefusal)
        return privateError(errorLocale, error.explain(catalogFor(errorLocale)));
      // A store outage is not the command's fault: say so, and that nothing is lost (the engine retries).
      if (isStoreFailure(error)) {
        deps.logger?.warn({ command: definition.name, ...errorSummary(error) }, 'command hit a store outage');
        return privateError(errorLocale, catalogFor(errorLocale).errors.storeDown);
      }
      deps.logger?.error({ command: definition.name, ...errorSummary(error) }, 'command failed unexpectedly');
      return privateError(errorLocale, catalogFor(errorLocale).errors.internal);
    }
  }

  async function autocomplete(
    commandName: string,
    optionName: string,
    partial: string,
    context: CommandContext,
  ): Promise<readonly { readonly name: string; readonly value: string }[]> {
    const option = findCommand(commandName)?.options.find((o) => o.name === optionName);
    if (option?.autocomplete !== 'project') return [];
    const wanted = partial.trim().toLowerCase();
    const scored = deps.readModel
      .watchedProjects()
      .filter((w) => projectVisibleTo(deps.hosted, context.channel, w.linkCaption))
      .map((w) => {
        const caption = w.linkCaption.toLowerCase();
        const title = w.title.toLowerCase();
        const rank =
          wanted === '' || caption.startsWith(wanted)
            ? 0
            : title.startsWith(wanted)
              ? 1
              : caption.includes(wanted) || title.includes(wanted)
                ? 2
                : -1;
        return { w, rank };
      })
      .filter((s) => s.rank >= 0)
      .sort((a, b) => a.rank - b.rank || a.w.linkCaption.localeCompare(b.w.linkCaption));
    return scored
      .filter((s) => s.w.linkCaption.length <= limits.suggestion)
      .slice(0, limits.suggestions)
      .map(({ w }) => {
        const title = singleLine(w.title, limits.suggestion - w.linkCaption.length - 3);
        return {
          name: title && title !== w.linkCaption ? `${title} (${w.linkCaption})` : w.linkCaption,
          value: w.linkCaption,
        };
      });
  }

  async function overviewRun(channel: ChannelRef): Promise<CommandRun> {
    const locale = await localeFor(channel);
    const definition = findCommand('status') as CommandDefinition;
    return {
      invocation: {
        name: 'status',
        options: {},
        context: { user: { id: '', displayName: '' }, channel, canAdminister: false },
      },
      definition,
      locale,
      t: catalogFor(locale),
      timeZone: await timeZoneFor(channel),
      now: deps.clock.now(),
      deps,
      freshness,
    };
  }

  const overview = async (channel: ChannelRef) => workspaceOverview(await overviewRun(channel));

  /** The workspace's channels with a subscription to a project it can see, each once. */
  async function subscribedChannels(workspace: ChannelRef): Promise<ChannelRef[]> {
    const channels = new Map<string, ChannelRef>();
    for (const watched of deps.readModel.watchedProjects()) {
      if (!projectVisibleTo(deps.hosted, workspace, watched.linkCaption)) continue;
      for (const s of await deps.subscriptions.forProject(watched.linkCaption)) {
        if (s.channel.platform === workspace.platform && s.channel.workspaceId === workspace.workspaceId)
          channels.set(s.channel.channelId, s.channel);
      }
    }
    return [...channels.values()];
  }

  async function noticesOverview(workspace: ChannelRef): Promise<NeutralMessage> {
    const run = await overviewRun(workspace);
    const fields = await noticesOverviewFields(run, await subscribedChannels(workspace));
    return {
      title: run.t.trace.homeTitle,
      ...(fields.length > 0 ? { fields } : { text: run.t.trace.empty }),
    };
  }

  return {
    execute,
    overview,
    noticesOverview,
    autocomplete,
    renderNotice: (event: FundbotEvent, locale: Locale, timeZone: string = defaultTimeZone) =>
      renderNotice(event, locale, timeZone),
    localeFor,
    timeZoneFor,
  };
}
