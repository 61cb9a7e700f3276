import { singleLine } from '../../domain/text.js';
import { limits } from '../../domain/text-limits.js';
import type { NeutralMessage } from '../message.js';
import { dailyThreadTexts } from '../notices/daily-thread-texts.js';
import type { CommandRun } from './command-run.js';

/**
 * /thread on|off: whether this channel reads its supporter notices in one thread a
 * day (one parent message with the running total; every supporter or batch a reply).
 * One store write; no platform request.
 */
export async function threadCommand(run: CommandRun): Promise<NeutralMessage> {
  const d = dailyThreadTexts(run.locale);
  const mode = String(run.invocation.options['mode'] ?? '')
    .trim()
    .toLowerCase();
  if (mode !== 'on' && mode !== 'off') {
    return { text: d.badValue(singleLine(mode, limits.name)), tone: 'error', private: true };
  }
  const settings = run.deps.dailyThreads;
  if (!settings) {
    // Only a core built without the setting (a test double) gets here: the app always wires it.
    return { text: run.t.errors.internal, tone: 'error', private: true };
  }
  await settings.set(run.invocation.context.channel, mode === 'on');
  return { text: mode === 'on' ? d.turnedOn : d.turnedOff, tone: 'success', private: true };
}
