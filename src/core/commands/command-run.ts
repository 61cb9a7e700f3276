import type { CommandDefinition } from '../../domain/command-definitions.js';
import type { EngineNote } from '../../domain/engine-notes.js';
import { errorSummary } from '../../domain/error-summary.js';
import type { CommandInvocation, Locale } from '../command-core.js';
import type { CommandCoreDeps, Freshness } from '../command-core-deps.js';
import { CommandRefusal } from '../command-refusal.js';
import { formatAge, formatMoney, formatNumber } from '../format.js';
import type { Catalog } from '../i18n/catalog.js';
import type { NeutralMessage } from '../message.js';
import { noteText } from '../note-text.js';
import { commandInvocationText } from '../parse-command-text.js';
import type { Cached } from '../ports.js';
import { classifyReadFailure, explainReadFailure } from '../read-failure.js';

/** One command execution: what a command handler gets. */
export interface CommandRun {
  readonly invocation: CommandInvocation;
  readonly definition: CommandDefinition;
  readonly locale: Locale;
  readonly t: Catalog;
  /** The IANA zone the channel's times are shown in (see CommandCore.timeZoneFor). */
  readonly timeZone: string;
  /** Read once per execution, so every age in one answer agrees. */
  readonly now: number;
  readonly deps: CommandCoreDeps;
  readonly freshness: Freshness;
}

export type CommandHandler = (run: CommandRun) => Promise<NeutralMessage>;

/** How the user types another command where this one ran: `/rewards`, or `/fundbot rewards` on Slack. */
export function typedCommand(run: CommandRun, name: string): string {
  return commandInvocationText(name, run.invocation.context.channel.platform);
}

/**
 * Reads from the engine; a failure becomes a refusal with a user-facing,
 * secret-free sentence (the engine only throws when it has nothing cached).
 */
export async function readOrRefuse<T>(
  run: CommandRun,
  read: () => Promise<T>,
  notFound: (t: Catalog) => string,
): Promise<T> {
  try {
    return await read();
  } catch (error) {
    const failure = classifyReadFailure(error);
    run.deps.logger?.warn(
      { command: run.definition.name, failure, ...errorSummary(error) },
      'command could not read from the engine',
    );
    throw new CommandRefusal((t) => explainReadFailure(failure, t, notFound(t), error), { cause: error });
  }
}

/** "Updated 20 seconds ago", or the stale label with the engine's reason in the channel's language. */
export function freshnessFooter(
  run: CommandRun,
  cached: Pick<Cached<unknown>, 'fetchedAt' | 'staleBecause'>,
): string {
  const age = formatAge(run.now - cached.fetchedAt, run.locale);
  return cached.staleBecause !== undefined
    ? run.t.common.staleFigures(age, noteText(cached.staleBecause, run.t, run.locale, run.timeZone))
    : run.t.common.updatedAgo(age);
}

/** The older of several cached values, stale if any is: an answer is as fresh as its oldest part. */
export function oldest(
  ...values: readonly (Pick<Cached<unknown>, 'fetchedAt' | 'staleBecause'> | undefined)[]
): Pick<Cached<unknown>, 'fetchedAt' | 'staleBecause'> {
  let result: { fetchedAt: number; staleBecause?: EngineNote } = { fetchedAt: Number.POSITIVE_INFINITY };
  let reason: EngineNote | undefined;
  for (const v of values) {
    if (!v) continue;
    if (v.fetchedAt < result.fetchedAt) result = { fetchedAt: v.fetchedAt };
    reason ??= v.staleBecause;
  }
  return reason !== undefined ? { ...result, staleBecause: reason } : result;
}

/** Money in the currency when known; a bare number otherwise (never a guessed currency). */
export function money(run: CommandRun, amount: number, currency: string | undefined): string {
  return currency ? formatMoney(amount, currency, run.locale) : formatNumber(amount, run.locale, 2);
}

/** "a, b, c and 4 more" for lists of values in a sentence. */
export function listWithMore(t: Catalog, items: readonly string[], max: number): string {
  if (items.length <= max) return t.common.list(items);
  return t.common.andMore(items.slice(0, max).join(', '), items.length - max);
}
