import {
  batchMinutesRange,
  type PacedKind,
  type PacingMode,
  pacedKinds,
  pacingModes,
} from '../../domain/pacing-modes.js';
import { singleLine } from '../../domain/text.js';
import { limits } from '../../domain/text-limits.js';
import { CommandRefusal } from '../command-refusal.js';
import type { Catalog } from '../i18n/catalog.js';
import type { NeutralMessage } from '../message.js';
import {
  type ChannelPacing,
  canonicalTimeZone,
  defaultBatchIntervalMs,
  defaultPacing,
  formatQuietHours,
  type KindPacing,
  type PacingSettings,
  parseQuietHours,
  type QuietHours,
} from '../settings/pacing-settings.js';
import { type CommandRun, typedCommand } from './command-run.js';

const minuteMs = 60_000;
/** Words that switch quiet hours off, in both languages. */
const offWords = new Set(['off', 'aus', 'none', 'keine', 'no', 'nein']);

function settingsOrRefuse(run: CommandRun): PacingSettings {
  const settings = run.deps.pacing;
  if (!settings) throw new CommandRefusal((t) => t.pacing.notConfigured);
  return settings;
}

/** A word that must be one of `valid`, else a refusal naming them all (Slack and the console type it freely). */
function oneOf<T extends string>(run: CommandRun, option: string, valid: readonly T[]): T {
  const raw = String(run.invocation.options[option] ?? '')
    .trim()
    .toLowerCase();
  const found = valid.find((v) => v === raw);
  if (found !== undefined) return found;
  const given = singleLine(raw, limits.name);
  throw new CommandRefusal((t) => t.errors.invalidChoice(option, given, valid.join(', ')));
}

/** A kind's pacing in words: "batched every 15 min". */
export function describePacing(t: Catalog, pacing: KindPacing): string {
  return t.pacing.mode(pacing.mode, Math.round((pacing.intervalMs ?? defaultBatchIntervalMs) / minuteMs));
}

/** The pacing the channel uses for a kind: its own choice, else the default. */
export function pacingOf(channel: ChannelPacing, kind: PacedKind): KindPacing {
  return channel.kinds[kind] ?? defaultPacing(kind);
}

/**
 * /pacing <kind|all> <auto|live|batched|hourly|digest> [minutes]: how often a kind of
 * notice is posted in this channel. Minutes go with `batched` only (default 5).
 * Cost: one store read and write of the channel's ~100-byte pacing record per kind.
 */
export async function pacingCommand(run: CommandRun): Promise<NeutralMessage> {
  const settings = settingsOrRefuse(run);
  const kind = oneOf(run, 'kind', [...pacedKinds, 'all'] as const);
  const mode: PacingMode = oneOf(run, 'mode', pacingModes);
  const rawMinutes = run.invocation.options['minutes'];
  let pacing: KindPacing = { mode };
  if (rawMinutes !== undefined && rawMinutes !== '') {
    const given = singleLine(String(rawMinutes), limits.name);
    if (mode !== 'batched') {
      const example = `${typedCommand(run, 'pacing')} ${kind} batched ${given}`;
      throw new CommandRefusal((t) => t.pacing.minutesOnlyForBatched(given, example));
    }
    const minutes = Number(rawMinutes);
    if (!Number.isInteger(minutes) || minutes < batchMinutesRange.min || minutes > batchMinutesRange.max) {
      throw new CommandRefusal((t) =>
        t.pacing.invalidMinutes(given, String(batchMinutesRange.min), String(batchMinutesRange.max)),
      );
    }
    pacing = { mode, intervalMs: minutes * minuteMs };
  }
  const kinds: readonly PacedKind[] = kind === 'all' ? pacedKinds : [kind];
  const { channel } = run.invocation.context;
  for (const k of kinds) await settings.setKind(channel, k, pacing);
  const { t } = run;
  const minutes = String(Math.round((pacing.intervalMs ?? defaultBatchIntervalMs) / minuteMs));
  return {
    text: t.pacing.set(
      t.common.list(kinds),
      `${describePacing(t, pacing)}: ${t.pacing.explain(mode, minutes)}`,
    ),
    tone: 'success',
    private: true,
  };
}

/**
 * /quiet <HH:MM-HH:MM|off> [time zone]: quiet hours of this channel. Notices are held
 * then and posted as one summary per kind when they end (the paced router).
 */
export async function quietCommand(run: CommandRun): Promise<NeutralMessage> {
  const settings = settingsOrRefuse(run);
  const { t } = run;
  const { channel } = run.invocation.context;
  const rawHours = String(run.invocation.options['hours'] ?? '').trim();
  const rawZone = String(run.invocation.options['timezone'] ?? '').trim();
  const example = `${typedCommand(run, 'quiet')} 22:00-07:00 Europe/Berlin`;
  if (offWords.has(rawHours.toLowerCase())) {
    await settings.setQuiet(channel, undefined);
    return { text: t.pacing.quietCleared, tone: 'success', private: true };
  }
  const hours = parseQuietHours(rawHours);
  if (!hours) {
    const given = singleLine(rawHours, limits.name);
    throw new CommandRefusal((tt) => tt.pacing.invalidHours(given, example));
  }
  if (hours.startMinute === hours.endMinute) throw new CommandRefusal((tt) => tt.pacing.emptyQuiet(example));
  const zone = rawZone === '' ? 'UTC' : canonicalTimeZone(rawZone);
  if (zone === undefined) {
    const given = singleLine(rawZone, limits.name);
    throw new CommandRefusal((tt) => tt.pacing.invalidTimeZone(given, example));
  }
  const quiet: QuietHours = zone === 'UTC' ? hours : { ...hours, timeZone: zone };
  await settings.setQuiet(channel, quiet);
  return { text: t.pacing.quietSet(formatQuietHours(quiet)), tone: 'success', private: true };
}
